ws
> plain
b é
? [1, {"a": null}]|
!
