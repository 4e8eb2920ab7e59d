"""LAN discovery: an advertised host is found by a browser on the same machine."""

from __future__ import annotations

import pytest

from scopa_net.server.discovery import HostAdvert, LanAdvertiser, browse_hosts


def test_txt_record_round_trips() -> None:
    advert = HostAdvert("kitchen table", 7311, 1, 2, True)
    props = {k.encode(): v.encode() for k, v in advert.properties().items()}
    assert HostAdvert.from_properties(props, 7311, ()) == advert


def test_a_record_that_is_not_ours_is_refused() -> None:
    with pytest.raises(ValueError, match="no 'proto'"):
        HostAdvert.from_properties({b"name": b"x"}, 1, ())


def test_advertised_host_is_found_and_updates_are_seen() -> None:
    advert = HostAdvert("discovery test", 47311, 1, 3, False)
    advertiser = LanAdvertiser(advert, "127.0.0.1", addresses=["127.0.0.1"])
    try:
        advertiser.update(HostAdvert("discovery test", 47311, 1, 1, True))
        found: list[HostAdvert] = []
        for _ in range(3):
            found = [h for h in browse_hosts(1.5) if h.port == 47311]
            if found and found[0].open_seats == 1:
                break
        assert found, "the advertised host was not found"
        assert found[0].name == "discovery test"
        assert found[0].open_seats == 1 and found[0].password
    finally:
        advertiser.close()
