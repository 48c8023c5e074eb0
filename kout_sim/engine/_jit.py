"""The one decorator policy for kernels, and the bit intrinsics they share.

Kernels are compiled with ``cache=True`` (compiled code is reused across processes) and ``nogil=True``;
no ``fastmath``: the kernels are integer code and must be exact.

Size: just over 600 lines: the decorator policy with the cache locator it needs, and the bit
intrinsics every kernel shares (with their Python bodies, and the random choice's two forms). The
bits could move to a module of their own, at the cost of every kernel module's imports.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import os
import re
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np
from llvmlite import ir
from numba import types
from numba.core.caching import CacheImpl as _CacheImpl
from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin
from numba.core.cpu import CPUTargetOptions
from numba.core.errors import NumbaExperimentalFeatureWarning
from numba.core.imputils import impl_ret_borrowed
from numba.core.options import TargetOptions
from numba.experimental import function_type as _function_type  # noqa: F401  (typeof of KernelPointer)
from numba.extending import intrinsic, overload

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``kout_sim`` package folder: every kernel's source lies below it."""


@functools.cache
def _module_file(name: str) -> Path | None:
    """The source file of the ``kout_sim`` module ``name`` (dotted, absolute), or ``None``."""
    parts = name.split(".")
    if parts[0] != PACKAGE.name:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    """The dotted module name of a source file below :data:`PACKAGE` (a package: its folder)."""
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


_IMPORT_LINE = re.compile(
    rb"^[ \t]*(?:from[ \t]+[.\w]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*)",
    re.MULTILINE,
)
"""An import statement at any indentation (a lazy import in a function body too), a parenthesised
name list across lines included. Text in a string that looks like one only adds a file to the
closure (a needless recompile, never a stale kernel)."""


@functools.cache
def _source(path: Path) -> bytes:
    """The text of a source file, read once a process (each file is in many closures)."""
    return path.read_bytes()


def _import_statements(source: bytes) -> list[ast.stmt]:
    """The import statements of ``source`` (:data:`_IMPORT_LINE`), parsed at once (one
    ``ast.parse`` a file); one by one when a match is not a statement (text in a string)."""
    found = [match.group(0).strip() for match in _IMPORT_LINE.finditer(source)]
    try:
        return ast.parse(b"\n".join(found)).body
    except SyntaxError:
        statements: list[ast.stmt] = []
        for text in found:
            try:
                statements.extend(ast.parse(text).body)
            except SyntaxError:
                continue  # text inside a string or a comment, not a statement
        return statements


@functools.cache
def _imports(path: Path) -> frozenset[Path]:
    """The ``kout_sim`` source files that ``path`` imports, at any depth (a lazy import in a
    function body counts too): ``import kout_sim.x``, ``from kout_sim.x import y`` and the relative
    forms; ``from .pkg import name`` counts the submodule ``pkg.name`` when it is one, else ``pkg``
    (whose ``name`` it is).

    Only the import statements are parsed (found by :data:`_IMPORT_LINE`), not the whole file:
    parsing the sources of the kernels' closures took 0.4 s of every start."""
    package = _module_name(path)
    if path.name != "__init__.py":
        package = package.rpartition(".")[0]
    found: set[Path] = set()
    for statement in _import_statements(_source(path)):
        names: list[str] = []
        if isinstance(statement, ast.Import):
            names = [alias.name for alias in statement.names]
        elif isinstance(statement, ast.ImportFrom):
            if statement.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (statement.level - 1)]
                base = ".".join(anchor + ([statement.module] if statement.module else []))
            else:
                base = statement.module or ""
            for alias in statement.names:  # a submodule, else a name defined in ``base``
                sub = f"{base}.{alias.name}"
                names.append(sub if _module_file(sub) is not None else base)
        for name in names:
            file = _module_file(name)
            if file is not None and file != path:
                found.add(file)
    return frozenset(found)


@functools.cache
def source_digest(path: Path) -> str:
    """Digest of ``path`` and of every ``kout_sim`` source it imports, directly or through others.

    Numba checks a cached kernel against its own file only, while LLVM inlines the kernels of other
    files into it (``forceinline``) and numba freezes the other modules' constants into its code: a
    kernel's machine code depends on the sources of its whole import closure. Keying each file's
    cache by that closure makes an edit recompile the kernels that can see it and nothing else (an
    edit of a player leaves the engine's kernels cached; an edit of ``engine/layout.py`` recompiles
    nearly everything, as it must)."""
    seen: set[Path] = set()
    todo = [path]
    while todo:
        file = todo.pop()
        if file in seen:
            continue
        seen.add(file)
        todo.extend(_imports(file) - seen)
    digest = hashlib.sha256()
    for file in sorted(seen):
        digest.update(str(file.relative_to(PACKAGE)).encode())
        digest.update(b"\0")
        digest.update(_source(file))
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def forget_sources() -> None:
    """Forget what this process has read of the sources (their text, imports and digests): for a
    process that edits them and wants the cache key to see the edit."""
    for memo in (_source, _module_file, _imports, source_digest, _package_source, _cache_folder):
        memo.cache_clear()


def cache_root() -> Path:
    """Where the kernels' compiled code goes: ``NUMBA_CACHE_DIR`` when the user sets it, else
    ``$XDG_CACHE_HOME/kout_sim/numba`` (``~/.cache/kout_sim/numba``)."""
    return _cache_root(os.environ.get("NUMBA_CACHE_DIR", ""), os.environ.get("XDG_CACHE_HOME"))


@functools.cache
def _cache_root(numba_dir: str, xdg: str | None) -> Path:
    if numba_dir:
        return Path(numba_dir)
    return Path(xdg or Path.home() / ".cache") / "kout_sim" / "numba"


@functools.cache
def _package_source(py_file: str) -> Path | None:
    """``py_file`` resolved, if it is a source of this package (else ``None``)."""
    path = Path(py_file).resolve()
    return path if path.is_relative_to(PACKAGE) else None


@functools.cache
def _cache_folder(path: Path, root: Path) -> tuple[str, str]:
    """The stamp (:func:`source_digest`) and the cache folder of the kernels of ``path``."""
    stamp = source_digest(path)
    sub = path.relative_to(PACKAGE).with_suffix("").parts
    if PACKAGE.name != "kout_sim":  # a renamed copy (benchmarks/ab_trees.py): folders of its own
        sub = (f"~{PACKAGE.name}", *sub)
    return stamp, str(root.joinpath(*sub, stamp))


_WRITABLE: set[str] = set()
"""The cache folders this process has found writable (:meth:`KernelCacheLocator.ensure_cache_path`)."""


class KernelCacheLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """Numba cache locator for the kernels of this package: each source file's compiled code goes
    to ``cache_root() / <module path> / <source_digest(file)>``, and its stamp is that digest, so a
    kernel is reused exactly while neither its own file nor any file it imports has changed.
    Versions of the sources side by side (two branches, a bisect) keep their own entries."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        path = _package_source(py_file)
        assert path is not None  # from_function takes the package's sources only
        self._stamp, self._cache_path = _cache_folder(path, cache_root())

    def get_cache_path(self) -> str:
        return self._cache_path

    def ensure_cache_path(self) -> None:
        """Numba's check (make the folder, write a temporary file in it), the temporary file once a
        folder a process: numba runs the check for every decorated kernel at import and before
        every save (a folder removed meanwhile is made again)."""
        if self._cache_path in _WRITABLE:
            os.makedirs(self._cache_path, exist_ok=True)
            return
        super().ensure_cache_path()  # type: ignore[no-untyped-call]
        _WRITABLE.add(self._cache_path)

    def get_source_stamp(self) -> str:
        return self._stamp

    @classmethod
    def from_function(cls, py_func: Any, py_file: str) -> KernelCacheLocator | None:
        if _package_source(py_file) is None:
            return None  # not a kout_sim source: numba's own locators
        parent: Any = super()
        return parent.from_function(py_func, py_file)


if KernelCacheLocator not in _CacheImpl._locator_classes:
    _CacheImpl._locator_classes.insert(0, KernelCacheLocator)

_NO_NRT: dict[str, Any] = {"_nrt": False}  # numba's own option; not in its typed signature
jit = numba.njit(cache=True, nogil=True, forceinline=True, **_NO_NRT)
"""Decorator for the kernels of the engine: each typed and lowered by numba once per signature, then
inlined by LLVM into its callers (``forceinline``: LLVM ``alwaysinline``), so a kernel costs no call
at run time. Without numba's reference-counted memory (``_nrt=False``): such a kernel allocates no
array, and the arrays it is given cost no atomic reference counts (they cost a quarter of the
heuristic's time when these kernels took part in reference counting). A kernel that allocates is
:data:`jit_alloc`; numba says so at compile time."""

jit_alloc = numba.njit(cache=True, nogil=True, forceinline=True)
"""Decorator for the kernels that allocate arrays, and the entry points: as :data:`jit`, with
numba's reference-counted memory."""

jit_leaf = numba.njit(cache=True, nogil=True, inline="always")
"""Decorator for the tiny kernels (a few lines, calling only leaves or dispatching to plain kernels):
inlined into their callers at numba IR level, which costs less to compile than a function of its
own. Never for a kernel with real work below it: numba re-types an inlined tree in every caller."""

# Numba's CPU target has a ``noalias`` flag (it sets it on the loop bodies of ``parallel=True``
# functions) but no jit option for it; ``_noalias`` maps to it as ``_nrt`` maps to ``nrt``.
CPUTargetOptions._noalias = TargetOptions.Mapping("noalias")  # type: ignore[no-untyped-call]
_NO_ALIAS: dict[str, Any] = {"_noalias": True}
jit_entry = numba.njit(cache=True, nogil=True, **_NO_ALIAS)
"""Decorator for the batch entry points (called from Python, one per family and line-up class):
as :data:`jit_alloc`, with every array argument marked ``noalias`` for LLVM (what numba does for
the body of a ``prange`` loop), so that the inlined engine keeps values in registers across the
stores to the result rows (measured: the random and heuristic hands as fast as the ``prange``
driver they replace). Contract: no two array arguments of an entry point share memory; the typed
wrappers pass distinct arrays."""

jit_entry_free = numba.njit(cache=True, nogil=True, **_NO_ALIAS, **_NO_NRT)
"""Decorator for the entry points that allocate nothing (their callers pass every scratch array):
as :data:`jit_entry`, without numba's reference-counted memory. In a reference-counting entry
point, every array handed between the kernels inlined into it takes an atomic increment and
decrement (measured: dozens per random hand, 7-11% of its time); here none."""


def _bit_intrinsic(name: str, doc: str, emit: Callable[[Any, Any], Any]) -> Any:
    """An ``int64 -> int64`` intrinsic whose code is ``emit(builder, value)`` (one LLVM bit
    instruction on the ``int64`` argument)."""

    def typer(typingctx: Any, x: Any) -> Any:
        if not isinstance(x, types.Integer):
            return None
        sig = types.int64(types.int64)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return emit(builder, context.cast(builder, args[0], signature.args[0], types.int64))

        return sig, codegen

    typer.__name__ = typer.__qualname__ = name
    typer.__doc__ = doc
    return intrinsic(typer)


_I1_FALSE = ir.Constant(ir.IntType(1), 0)  # "zero is not poison" for cttz and ctlz
_popcount = _bit_intrinsic(
    "_popcount", "Number of set bits of an ``int64`` (LLVM ``ctpop``).", lambda b, v: b.ctpop(v)
)
_lowest_bit = _bit_intrinsic(
    "_lowest_bit",
    "Index of the lowest set bit of a non-zero ``int64`` (LLVM ``cttz``).",
    lambda b, v: b.cttz(v, _I1_FALSE),
)
_highest_bit = _bit_intrinsic(
    "_highest_bit",
    "Index of the highest set bit of an ``int64``, -1 for 0 (63 - LLVM ``ctlz``).",
    lambda b, v: b.sub(ir.Constant(ir.IntType(64), 63), b.ctlz(v, _I1_FALSE)),
)


_U64 = (1 << 64) - 1


def popcount(x: int) -> int:
    """Number of set bits of an ``int64`` (its 64-bit two's complement)."""
    return (int(x) & _U64).bit_count()


def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero ``int64``."""
    v = int(x) & _U64
    return (v & -v).bit_length() - 1


def highest_bit(x: int) -> int:
    """Index of the highest set bit of an ``int64``; -1 for 0 (the heuristic's sure-winner masks
    rely on it)."""
    return (int(x) & _U64).bit_length() - 1


# In kernels the three are the LLVM intrinsics; the Python bodies above run when they are called
# from Python and under NUMBA_DISABLE_JIT=1 (a kernel stepped in a debugger or measured for
# coverage), numba's overload pattern.
def _intrinsic_in_kernels(python: Callable[[int], int], llvm: Any) -> None:
    def typed(x):  # unannotated: numba compares its parameters with the lambda's
        if isinstance(x, types.Integer):
            return lambda x: llvm(x)
        return None

    overload(python, jit_options={"forceinline": True})(typed)


for _python, _llvm in (
    (popcount, _popcount),
    (lowest_bit, _lowest_bit),
    (highest_bit, _highest_bit),
):
    _intrinsic_in_kernels(_python, _llvm)


_borrowed: Callable[..., Any] = impl_ret_borrowed  # numba's own, untyped

_NO_JIT = bool(getattr(numba.config, "DISABLE_JIT", 0))
"""NUMBA_DISABLE_JIT=1: the intrinsics below give way to their Python bodies."""


@intrinsic
def _readonly(typingctx: Any, a: Any) -> Any:
    """The array ``a`` typed read-only: the same data and descriptor, no copy."""
    if not isinstance(a, types.Array):
        return None
    ro = a.copy(readonly=True)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return _borrowed(context, builder, ro, args[0])

    return ro(a), codegen


def _readonly_python(a: np.ndarray) -> np.ndarray:
    view = a.view()
    view.flags.writeable = False
    return view


readonly: Callable[[np.ndarray], np.ndarray] = _readonly_python if _NO_JIT else _readonly
"""``readonly(a)``: ``a`` typed read-only (in kernels only the type changes: no copy, no check; from
Python and under NUMBA_DISABLE_JIT=1 a read-only view). A kernel that reads rule tables out of a
writable workspace passes them on as the drivers pass ``tables_of``'s read-only arrays, so the
kernels below it compile one signature, not two. Called in kernels that return no array (numba
without reference counting accepts no array return it cannot trace to an argument)."""


@intrinsic
def _data_pointer(typingctx: Any, a: Any) -> Any:
    """The address of the first element of the array ``a``, typed as a pointer to its dtype."""
    if not isinstance(a, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.make_array(signature.args[0])(context, builder, args[0]).data

    pointer: Any = types.CPointer(a.dtype)  # type: ignore[no-untyped-call]
    return pointer(a), codegen


def _data_pointer_python(a: np.ndarray) -> np.ndarray:
    return a


@intrinsic
def _rows_at(typingctx: Any, p: Any, rows: Any, cols: Any) -> Any:
    """The C-contiguous ``rows x cols`` array at the pointer ``p`` (no owner, no copy)."""
    if not isinstance(p, types.CPointer) or not isinstance(rows, types.Integer):
        return None
    if not isinstance(cols, types.Integer):
        return None
    aryty = types.Array(p.dtype, 2, "C")

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(aryty)(context, builder)
        itemsize = context.get_abi_sizeof(context.get_data_type(aryty.dtype))
        n = context.cast(builder, args[1], signature.args[1], types.intp)
        m = context.cast(builder, args[2], signature.args[2], types.intp)
        intp = context.get_value_type(types.intp)
        size = ir.Constant(intp, itemsize)
        context.populate_array(
            ary,
            data=args[0],
            shape=[n, m],
            strides=[builder.mul(m, size), size],
            itemsize=size,
            meminfo=None,
        )
        return ary._getvalue()

    return aryty(p, rows, cols), codegen


def _rows_at_python(a: np.ndarray, rows: int, cols: int) -> np.ndarray:
    return a


data_pointer: Callable[[np.ndarray], Any] = _data_pointer_python if _NO_JIT else _data_pointer
"""``data_pointer(a)``: the address of a C-contiguous 2-d array's data, to hand to a kernel that
views it again with :data:`rows_at` (from Python and under NUMBA_DISABLE_JIT=1, ``a`` itself). A
recursive kernel passes one pointer where an array passes its whole descriptor (nine words for two
dimensions)."""
rows_at: Callable[[Any, int, int], np.ndarray] = _rows_at_python if _NO_JIT else _rows_at
"""``rows_at(pointer, rows, cols)``: the C-contiguous ``rows x cols`` array at a
:data:`data_pointer` (from Python and under NUMBA_DISABLE_JIT=1 the array :data:`data_pointer`
gave): a view with no owner, so only in a kernel that returns no array, while the array lives.
Constant ``rows`` and ``cols`` fold into every index of the view."""


_SLOW_PDEP = frozenset({"bdver4", "znver1", "znver2"})
"""CPUs whose BMI2 ``PDEP`` is microcode (tens to hundreds of cycles, by the mask's bits)."""


def _target_has_fast_pdep() -> bool:
    """Whether numba's compile target has a one-instruction BMI2 ``PDEP``: the host CPU (numba's
    default target) with BMI2, other than the AMD cores that run it as microcode. A target named
    by ``NUMBA_CPU_NAME`` / ``NUMBA_CPU_FEATURES`` (often a generic one, for a portable cache)
    does not assume it. Numba keys its cache by the target CPU and features, so kernels compiled
    either way never mix."""
    if getattr(numba.config, "CPU_NAME", None) or getattr(numba.config, "CPU_FEATURES", None):
        return False
    import llvmlite.binding as ll

    host = ll.get_host_cpu_name()
    return host not in _SLOW_PDEP and bool(ll.get_host_cpu_features().get("bmi2", False))


FAST_PDEP = _target_has_fast_pdep() and not _NO_JIT
""":data:`nth_bit` is ``PDEP`` and a trailing-zero count (else a broadword select)."""


def _pdep_typer(typingctx: Any, x: Any, mask: Any) -> Any:
    """BMI2 ``PDEP`` of two ``int64`` (LLVM ``llvm.x86.bmi.pdep.64``): the low bits of ``x``
    deposited at the set bits of ``mask``, lowest first. Only where :data:`FAST_PDEP` holds."""
    if not (isinstance(x, types.Integer) and isinstance(mask, types.Integer)):
        return None
    sig = types.int64(types.int64, types.int64)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic(
            "llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64])
        )
        a = context.cast(builder, args[0], signature.args[0], types.int64)
        b = context.cast(builder, args[1], signature.args[1], types.int64)
        return builder.call(fn, [a, b])

    return sig, codegen


_pdep: Any = intrinsic(_pdep_typer)


@jit
def _nth_bit_pdep(mask: int, k: int) -> int:
    """:data:`nth_bit` by ``PDEP``: bit ``k`` deposited at the ``k``-th set bit of ``mask``, and
    its index counted (two instructions)."""
    return lowest_bit(_pdep(np.int64(1) << k, mask))


def _select_in_byte() -> np.ndarray:
    """``[byte | r << 8]``: the index of the ``r``-th set bit of ``byte`` (8 where it has none)."""
    table = np.full(2048, 8, dtype=np.int8)
    for byte in range(256):
        for r, i in enumerate(i for i in range(8) if byte >> i & 1):
            table[byte | r << 8] = i
    return table


SELECT_IN_BYTE = _select_in_byte()
_L8 = np.int64(0x0101010101010101)
_H8 = np.int64(-0x7F7F7F7F7F7F7F80)  # 0x80 in every byte


@jit
def nth_bit_broadword(mask: int, k: int) -> int:
    """:data:`nth_bit` where the target has no fast ``PDEP``: Vigna's broadword select. Each byte's
    set bits are counted and summed up the bytes by one multiply (none of it waits for ``k``, so it
    runs while the random number is drawn); the byte holding the bit is the number of sums not
    above ``k``, and the bit within it one load of :data:`SELECT_IN_BYTE`. Measured against the
    binary search on the population counts of halves it replaces (five dependent steps after
    ``k``) in a chain of random choices, ``below`` included: 20.5-24.8 ns against 26.5-43.4 ns
    (docs/performance.md)."""
    s = mask - ((mask >> 1) & 0x5555555555555555)
    s = (s & 0x3333333333333333) + ((s >> 2) & 0x3333333333333333)
    s = ((s + (s >> 4)) & 0x0F0F0F0F0F0F0F0F) * _L8  # byte i: the set bits of bytes 0..i
    place = popcount((((k * _L8) | _H8) - s) & _H8) << 3  # 8 x the bytes whose sum is <= k
    rank = k - (((s << 8) >> place) & 0xFF)  # k among the bits of the byte at place
    return place + np.int64(SELECT_IN_BYTE[((mask >> place) & 0xFF) | (rank << 8)])


nth_bit: Callable[[int, int], int] = _nth_bit_pdep if FAST_PDEP else nth_bit_broadword
"""``nth_bit(mask, k)``: the index of the ``k``-th (0-based, from the lowest) set bit of
``mask``, for ``k < popcount(mask)`` (the random choices of every player). ``PDEP`` where the
target runs it in one instruction (:data:`FAST_PDEP`), else :func:`nth_bit_broadword`; the two
agree on every such ``k`` (a test checks them on random masks). Chosen in Python, so a kernel
compiles only the one its target runs."""


@jit_leaf
def copy_into(dst: np.ndarray, src: np.ndarray) -> None:
    """``dst[:] = src`` for 1-d arrays of one length, as a loop (the slice assignment compiles
    numba's broadcasting and its shape-mismatch error: seconds per caller)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


def quiet_first_class_warning() -> None:
    """Silence numba's note that first-class functions are experimental: the drivers' use of them
    (a pointer argument called in a kernel) is tested (tests/unit/test_kernel_pointer.py). Numba
    issues the note with the location of the kernel being compiled (a ``kout_sim`` source), so the
    filter is on its category and text, not on the module that issues it."""
    warnings.filterwarnings(
        "ignore",
        message="First-class function type feature is experimental",
        category=NumbaExperimentalFeatureWarning,
    )


quiet_first_class_warning()


class KernelPointer(types.WrapperAddressProtocol):
    """A compiled kernel handed to other kernels by its address (numba's first-class functions).

    A kernel argument of this object is typed ``FunctionType(signature)``: the caller calls the
    kernel through its address, so the callee's machine code is not linked into the caller's and
    is compiled once (for ``signature``, cached like every kernel) however many entry points call
    it. That is how the drivers take the search players (docs/compile.md): a search decision costs
    milliseconds, the indirect call nothing measurable. Called from Python (and under
    NUMBA_DISABLE_JIT=1, in kernels run as Python) it calls the kernel itself.
    """

    def __init__(self, kernel: Callable[..., Any], signature: Any) -> None:
        self.kernel = kernel
        self._signature = signature
        self._address = 0

    def __wrapper_address__(self) -> int:
        """The address of the kernel's C-callable wrapper for the signature (compiled or loaded
        from the cache on first use)."""
        if not self._address:
            result = self.kernel.get_compile_result(self._signature)  # type: ignore[attr-defined]
            name = result.fndesc.llvm_cfunc_wrapper_name
            self._address = int(result.library.get_pointer_to_function(name))
        return self._address

    def signature(self) -> Any:
        """The numba signature the kernel is compiled for."""
        return self._signature

    def __call__(self, *args: Any) -> Any:
        return self.kernel(*args)

    def __repr__(self) -> str:
        return f"KernelPointer({getattr(self.kernel, '__name__', self.kernel)}, {self._signature})"


def _import_arraymath_without_scipy() -> None:
    """Import numba's ``numba.np.arraymath`` with its BLAS probe answered by whether scipy is
    installed, without importing ``scipy.linalg``.

    numba imports ``arraymath`` when it first compiles or loads a kernel, and the module's import
    probes for BLAS (for ``np.cov`` and ``np.corrcoef``) by importing ``scipy.linalg.cython_blas``:
    the whole ``scipy.linalg`` package, 0.3 s of every cached start (docs/compile.md). No kernel
    here uses BLAS; numba's linear algebra still imports and checks scipy itself when a kernel
    does (``numba.np.linalg.ensure_blas``, restored before this returns).
    """
    import importlib.util

    from numba.np import linalg

    real = linalg.ensure_blas

    def scipy_installed() -> None:
        if importlib.util.find_spec("scipy") is None:
            raise ImportError("scipy is not installed")

    linalg.ensure_blas = scipy_installed
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        linalg.ensure_blas = real


_import_arraymath_without_scipy()
