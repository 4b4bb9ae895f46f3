ws
> plain
b é
? [1, {"a message[2]:then-close-1008 b": null}]|
!
