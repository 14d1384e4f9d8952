"""Streaming (non-temporal) stores for writing large batches of observation rows.

A batch of observations larger than the cache evicts the game state it is encoded
from when written with plain stores, which first read every line they write. A
kernel takes a :func:`scratch_row` for its output: empty when the output fits the
cache, else a row to encode into. It encodes each row into :func:`encode_target` (the
output row, or the scratch row) and calls :func:`flush_row`, which copies a scratch row
out (whole aligned cache lines, written without being read), then :func:`end_stream`
once before returning.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array

#: a batch's rows beyond this many bytes (more than a cache keeps) are written with streaming
#: stores: measured, they passed the slower plain stores at 4096 games and lost at 1024
STREAM_BYTES = 1 << 23
_LINE = 16  # float32 slots of a 64-byte cache line


@intrinsic
def _address(typingctx, a):
    """The address of an array's first element."""

    def codegen(context, builder, sig, args):
        data = make_array(sig.args[0])(context, builder, args[0]).data
        return builder.ptrtoint(data, context.get_value_type(types.intp))

    return types.intp(a), codegen


@intrinsic
def _stream_line(typingctx, dst, src, i):
    """``dst[i : i + 16] = src[i : i + 16]`` as one non-temporal store (``dst + i`` 64-byte
    aligned): the line is written without being read first, and does not evict the state."""
    rows = (dst, src)
    if not all(isinstance(a, types.Array) and a.dtype == types.float32 and a.layout == "C" for a in rows):
        return None  # the vector type below is 16 contiguous float32

    def codegen(context, builder, sig, args):
        line = ir.VectorType(ir.FloatType(), _LINE)
        d, s = (make_array(t)(context, builder, a).data for t, a in zip(sig.args[:2], args[:2], strict=True))
        value = builder.load(builder.bitcast(builder.gep(s, [args[2]]), line.as_pointer()), align=4)
        store = builder.store(value, builder.bitcast(builder.gep(d, [args[2]]), line.as_pointer()), align=64)
        store.set_metadata("nontemporal", builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)]))
        return context.get_dummy_value()

    return types.none(dst, src, i), codegen


@intrinsic
def fence(typingctx):
    """Orders the streaming stores before every later memory access."""

    def codegen(context, builder, sig, args):
        builder.fence("seq_cst")
        return context.get_dummy_value()

    return types.none(), codegen


@njit(inline="always")
def stream_row(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src`` (float32 rows), whole aligned cache lines with streaming stores."""
    n = dst.shape[0]
    head = min((-_address(dst) % (4 * _LINE)) // 4, n)  # float32 arrays are 4-byte aligned
    for i in range(head):
        dst[i] = src[i]
    i = head
    while i + _LINE <= n:
        _stream_line(dst, src, i)
        i += _LINE
    for k in range(i, n):
        dst[k] = src[k]


@njit(inline="always")
def scratch_row(out: np.ndarray, rows: int) -> np.ndarray:
    """The scratch row for writing ``rows`` rows of ``out``: empty unless they exceed
    :data:`STREAM_BYTES`, then one row to encode into before :func:`flush_row`."""
    return np.empty(out.shape[1] if rows * out.shape[1] * 4 > STREAM_BYTES else 0, np.float32)


@njit(inline="always")
def encode_target(dst: np.ndarray, scratch: np.ndarray) -> np.ndarray:
    """Where a row is encoded: into ``dst`` in place, or into ``scratch`` when rows stream."""
    return scratch if scratch.shape[0] > 0 else dst


@njit(inline="always")
def flush_row(dst: np.ndarray, scratch: np.ndarray) -> None:
    """Streams the encoded ``scratch`` row to ``dst`` (nothing when rows are encoded in place)."""
    if scratch.shape[0] > 0:
        stream_row(dst, scratch)


@njit(inline="always")
def end_stream(scratch: np.ndarray) -> None:
    """Orders the streamed rows before the caller's next reads (:func:`fence`), if any were."""
    if scratch.shape[0] > 0:
        fence()
