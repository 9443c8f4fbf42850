"""The records of a trace file (docs/TraceFormat.md), for tests that damage
them."""


def event_records(data: bytes):
    """(offset, length, tag) of each event chunk record (EVNT, EVNZ, EVNP,
    EV2T, EV2Z) of a trace: 16-byte headers (tag, length, checksum, aux)
    after the magic."""
    offset, records = 8, []
    while offset + 16 <= len(data):
        tag, length = data[offset:offset + 4], int.from_bytes(data[offset + 4:offset + 8], "little")
        if tag in (b"EVNT", b"EVNZ", b"EVNP", b"EV2T", b"EV2Z"):
            records.append((offset, 16 + length, tag.decode()))
        offset += 16 + length
    return records


def record_checksum(tag: bytes, length: int, aux: int, payload: bytes) -> int:
    """A record's checksum: FNV-1a (32-bit) a word at a time over tag,
    length, aux and the payload."""
    data = tag + length.to_bytes(4, "little") + aux.to_bytes(4, "little") + payload
    n, h = len(data) // 4 * 4, 2166136261
    for v in [int.from_bytes(data[i:i + 4], "little") for i in range(0, n, 4)] + list(data[n:]):
        h = ((h ^ v) * 16777619) & 0xFFFFFFFF
    return h
