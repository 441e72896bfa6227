"""The tools around the card room, apart from the room itself: the WebSocket client
(`client`), the load and fault test (`loadtest`) and the processes it and the tests start
(`processes`), the terminal game and replays (`terminal`), bot-against-bot matches (`arena`)
and the solver's review of a recorded match (`analysis`). The command line reaches them all;
nothing in the server imports them.
"""
