"""Which client a connection is, for the per-address limits: its own address, or behind a trusted
proxy the one the proxy reports in ``X-Forwarded-For``.

A header is believed only when the connection comes from a configured proxy (``--trusted-proxy``):
anyone else could write any address there and dodge every limit.  The proxy appends the address it
saw, so the header is read from the right, skipping the trusted proxies themselves; what a client
wrote before that is ignored.  IPv6 clients are keyed by their /64 (one host usually holds a whole
/64, so a single address per connection would let one host open endless "addresses").

>>> trusted = parse_networks(["127.0.0.1", "10.0.0.0/8"])
>>> client_key("127.0.0.1", "203.0.113.9", trusted)
'203.0.113.9'
>>> client_key("127.0.0.1", "6.6.6.6, 203.0.113.9", trusted)
'203.0.113.9'
>>> client_key("198.51.100.7", "6.6.6.6", trusted)
'198.51.100.7'
>>> client_key("127.0.0.1", "2001:db8:1:2:3:4:5:6", trusted)
'2001:db8:1:2::/64'
"""

from __future__ import annotations

import ipaddress
from typing import Iterable

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(texts: Iterable[str]) -> tuple[Network, ...]:
    """``--trusted-proxy`` values: addresses or networks (``10.0.0.0/8``); raises ``ValueError``."""
    return tuple(ipaddress.ip_network(text.strip(), strict=False) for text in texts)


def _address(text: str):
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _key(address) -> str:
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _trusted(address, trusted: tuple[Network, ...]) -> bool:
    return address is not None and any(address in network for network in trusted)


def client_key(peer: str, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The key of the per-address limits for a connection from ``peer`` with this header (or ``None``)."""
    address = _address(peer)
    if address is None:
        return peer
    if not _trusted(address, trusted) or not forwarded_for:
        return _key(address)
    for hop in reversed(forwarded_for.split(",")):
        hop_address = _address(hop)
        if hop_address is None:
            break  # a garbled header: the last good hop the proxies vouch for is the client
        address = hop_address
        if not _trusted(address, trusted):
            break
    return _key(address)
