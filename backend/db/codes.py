"""Why a device sign-in link is refused. Defined here once (the store decides it); the api layer
lists these with every other refusal code and the client's list is generated from them."""

from __future__ import annotations

from enum import StrEnum


class DeviceLinkCode(StrEnum):
    DEVICE_LINK_UNKNOWN = "device_link_unknown"  # no such code (mistyped, or never issued)
    DEVICE_LINK_USED = "device_link_used"  # the code has signed a device in already: single use
    DEVICE_LINK_EXPIRED = "device_link_expired"  # the code was not redeemed in time
