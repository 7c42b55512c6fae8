"""Private table codes: six characters from an alphabet with no look-alikes, read back leniently.

The page puts the code in the URL fragment (``#t=K7M2QX``); a friend may also type it, so
:func:`parse_code` accepts lower case and surrounding spaces.  The alphabet has no characters
a reader confuses (0 O, 1 I L).

>>> import random
>>> code = new_code(random.Random(4))
>>> len(code), all(c in ALPHABET for c in code)
(6, True)
>>> parse_code(" k7m2qx ") == "K7M2QX", parse_code("abc")
(True, None)
"""

from __future__ import annotations

import secrets

#: 31 characters, digits and capitals without 0 O 1 I L: 31**6, near 900 million codes.
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 6


def new_code(rng=None) -> str:
    """A fresh random code (``secrets`` unless a generator is passed, as tests do)."""
    choice = secrets.choice if rng is None else rng.choice
    return "".join(choice(ALPHABET) for _ in range(LENGTH))


def parse_code(text: str) -> str | None:
    """The code in canonical form, or ``None`` when ``text`` cannot be one."""
    code = text.strip().upper()
    if len(code) != LENGTH or any(c not in ALPHABET for c in code):
        return None
    return code
