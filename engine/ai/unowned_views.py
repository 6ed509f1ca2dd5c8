"""Array views without reference counting, for the compiled search and table build.

numba counts the references of every array view it makes (``boards[depth]``,
``kids[ply, 0]``...) with atomic instructions. In the search, several views per node made
those atomics half of the running time. A view of an array whose meminfo is null skips them.
"""

from __future__ import annotations

from llvmlite import ir
from numba.extending import intrinsic


@intrinsic
def unowned(typingctx, array):
    """The same array with a null meminfo: neither it nor any view of it counts references.
    Safe only while the caller keeps the real array alive, as every caller here does (the
    arrays belong to Python objects that outlive the call)."""

    def codegen(context, builder, signature, args):
        null = ir.Constant(ir.PointerType(ir.IntType(8)), None)
        value = builder.insert_value(args[0], null, 0)  # meminfo
        return builder.insert_value(value, null, 1)  # parent object

    return array(array), codegen
