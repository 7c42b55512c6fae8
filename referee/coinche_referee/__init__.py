"""The referee: a small asyncio WebSocket service that runs online matches with the engine.

At a 1v1 table two humans sit in seats 0 and 1, each with a bot partner opposite; at a friends' table
two to four people take the seats they like in its lobby, and bots sit in the others.  The referee holds the whole
match (a :class:`coinche.session.Session`), checks every action, and sends each player only their
own seat's view and the public events.  ``python -m coinche_referee --port 8765`` runs it;
PROTOCOL.md describes what travels on the socket.
"""

from .protocol import PROTOCOL, RefereeError, parse_request
from .referee import Client, Config, Referee

__version__ = "0.1.0"
__all__ = ["PROTOCOL", "RefereeError", "parse_request", "Client", "Config", "Referee"]
