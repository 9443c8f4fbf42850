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


# Hand-made trace files, record by record, for the errors of damaged or
# crafted ones that a real run does not write.

MAGIC = b"PHDRWPP\n"


def record(tag: bytes, payload: bytes, aux: int = 0, length=None) -> bytes:
    """One record: its 16-byte header (tag, length, checksum, aux) and
    payload; `length` overrides the one the header declares."""
    length = len(payload) if length is None else length
    return (tag + length.to_bytes(4, "little")
            + record_checksum(tag, length, aux, payload).to_bytes(4, "little")
            + aux.to_bytes(4, "little") + payload)


def head(granularity: int = 0, version: int = 4, fingerprint: int = 0xFEED) -> bytes:
    """HEAD: version, granularity (0 function, 1 path), fingerprint, pid,
    parent pid, start time."""
    return record(b"HEAD", version.to_bytes(4, "little")
                  + granularity.to_bytes(4, "little")
                  + fingerprint.to_bytes(8, "little") + (1).to_bytes(4, "little")
                  + bytes(12))


def vocabulary(text: str) -> bytes:
    return record(b"VOCB", text.encode())


def events(tokens, sequence: int = 0, thread: int = 0) -> bytes:
    """EVNT: a chunk of 32-bit words."""
    return record(b"EVNT", sequence.to_bytes(4, "little")
                  + b"".join(t.to_bytes(4, "little") for t in tokens), aux=thread)


def end(count: int, threads: int = 1) -> bytes:
    """ENDT: the events written, a normal exit, the threads that wrote
    event records (one), none dropped."""
    return record(b"ENDT", count.to_bytes(8, "little") + bytes(4) * 2
                  + threads.to_bytes(4, "little") + bytes(4))


VOCABULARY = "0\tfunction\tmain\n1\tfunction\tf\n2\tcall_site\tmain\t0\tf\n"


def trace_file(tokens=(0, 2, 1), vocabulary_text=VOCABULARY, granularity=0,
               ending=None) -> bytes:
    """A whole trace of one thread: `tokens` in one chunk, then the end
    record (counting `len(tokens)` events unless `ending` replaces it)."""
    return (MAGIC + head(granularity) + vocabulary(vocabulary_text)
            + events(list(tokens)) + (end(len(tokens)) if ending is None else ending))
