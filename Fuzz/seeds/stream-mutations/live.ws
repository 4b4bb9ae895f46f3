ws
> {"type":"hello","channel":"top-albums"}
? {"type":"pong"}
? {"type":"subscribed","channel":"top-albums"}|{"type":"chart","rank":1,"album":"Midnights"}
x 1001
