"""Streaming (non-temporal) stores: the batch entry points write their result rows with them.

A batch of result rows is hundreds of megabytes, written once and read much later: a plain store to
a cache line not in the cache reads the line from memory before it writes it, and a streaming store
does not (:func:`kout_sim.drivers.loop.flush_rows`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from ._jit import _NO_JIT

_item_pointer: Callable[..., Any] = cgutils.get_item_pointer  # numba's own, untyped


def _stream_store_typer(typingctx: Any, a: Any, i: Any, v: Any) -> Any:
    """``a[i] = v`` for a 1-d ``int64`` array, as a non-temporal (streaming) store."""
    ok = isinstance(a, types.Array) and a.ndim == 1 and a.dtype == types.int64
    if not (ok and isinstance(i, types.Integer) and isinstance(v, types.Integer)):
        return None
    sig = types.void(a, i, v)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = _item_pointer(context, builder, aryty, ary, [index], wraparound=False)
        value = context.cast(builder, args[2], signature.args[2], types.int64)
        store = builder.store(value, ptr)
        one = builder.module.add_metadata([ir.Constant(ir.IntType(32), 1)])
        store.set_metadata("nontemporal", one)
        return context.get_dummy_value()

    return sig, codegen


def _store_fence_typer(typingctx: Any) -> Any:
    """A full memory fence (LLVM ``fence seq_cst``: ``mfence`` on x86, which orders the streaming
    stores before every later load and store)."""
    sig = types.void()

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        builder.fence("seq_cst")
        return context.get_dummy_value()

    return sig, codegen


def _stream_store_python(a: np.ndarray, i: int, v: int) -> None:
    a[i] = v


def _store_fence_python() -> None:
    return None


_stream_store_kernel: Any = intrinsic(_stream_store_typer)
_store_fence_kernel: Any = intrinsic(_store_fence_typer)

stream_store: Callable[[np.ndarray, int, int], None] = (
    _stream_store_python if _NO_JIT else _stream_store_kernel
)
"""``stream_store(a, i, v)``: ``a[i] = v`` (``a`` a 1-d ``int64`` array, ``i`` in range: no
bounds check, no negative index) as a non-temporal store, which writes the cache line to memory
without reading it first. For output written once and read much later (the result rows of a
batch, hundreds of megabytes): a plain store to a line not in the cache reads it from memory
first, and the rows of a column-major buffer touch a line of each column every hand. Call
:data:`store_fence` before anything reads what was written."""

store_fence: Callable[[], None] = _store_fence_python if _NO_JIT else _store_fence_kernel
"""``store_fence()``: order the :data:`stream_store` writes before every later memory access (a
kernel calls it before it returns its output)."""
