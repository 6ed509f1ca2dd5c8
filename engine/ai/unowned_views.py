"""Array views without reference counting, for the compiled search and table build.

numba counts the references of every array view it makes (``boards[depth]``,
``kids[ply, 0]``...) with atomic instructions. In the search, several views per node made
those atomics half of the running time. A view of an array whose meminfo is null skips them.
Two more intrinsics for the kernels: ``prefetch`` and ``unlikely``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from numpy.typing import NDArray

    # The intrinsics as the kernels call them. numba's stubs type an @intrinsic by its
    # definition, which also takes the typing context and returns (signature, codegen), and
    # make any call an error (it is one, outside compiled code). The definitions below are
    # compiler extensions written against llvmlite, which has no types to check them with.
    def unowned(array: NDArray[Any]) -> NDArray[Any]: ...

    def prefetch(array: NDArray[Any], offset: int) -> None: ...

    def unlikely(condition: bool) -> bool: ...

else:
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

    @intrinsic
    def prefetch(typingctx, array, offset):
        """Ask the CPU to start loading ``array``'s element at flat ``offset`` into the cache
        (LLVM's prefetch: a hint, never a fault, no effect on values). The search asks for a
        child's transposition-table entry before it makes the call that reads it: a table of
        hundreds of MB misses the cache at nearly every node."""
        from numba.core import cgutils

        def codegen(context, builder, signature, args):
            data = context.make_array(signature.args[0])(context, builder, args[0]).data
            address = builder.bitcast(builder.gep(data, [args[1]]), ir.PointerType(ir.IntType(8)))
            int32 = ir.IntType(32)
            hint = cgutils.get_or_insert_function(
                builder.module,
                ir.FunctionType(ir.VoidType(), [address.type, int32, int32, int32]),
                "llvm.prefetch.p0i8",
            )
            # read (0), keep in all cache levels (3), data cache (1)
            builder.call(hint, [address, int32(0), int32(3), int32(1)])
            return context.get_dummy_value()

        from numba.core import types

        return types.none(array, offset), codegen

    @intrinsic
    def unlikely(typingctx, condition):
        """``condition``, which the compiled code expects to be false (LLVM's expect): the
        code it guards is laid out of the common path. The rules kernel tests Togyz Kumalak's
        keys so, a few times a move: as plain tests they made Kalah's search a quarter slower,
        through what the optimizer made of the code around them."""
        from numba.core import cgutils, types

        def codegen(context, builder, signature, args):
            bit = ir.IntType(1)
            expect = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(bit, [bit, bit]), "llvm.expect.i1"
            )
            return builder.call(expect, [args[0], bit(0)])

        return types.boolean(types.boolean), codegen
