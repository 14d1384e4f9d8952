"""A view of the state tuple whose arrays carry no reference count.

numba increfs and decrefs every array of the 41-array state tuple whenever the
tuple enters a function — also an inlined one — which costs about 0.5 us per
call level, more than most decisions' rules work. The batch kernels therefore
call :func:`borrow` once on entry and hand the borrowed tuple to the
per-game code: its arrays are the same memory with a null ``meminfo``, so the
reference counting compiles to nothing.

The borrowed arrays are valid only while the caller's arguments are alive,
i.e. inside the kernel call; they must never be returned or stored.
"""

from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


@intrinsic
def borrow(typingctx, state):
    """``state`` (a tuple of arrays) with every array's meminfo set to null."""
    if not isinstance(state, types.BaseTuple) or not all(isinstance(t, types.Array) for t in state.types):
        return None

    def codegen(context, builder, sig, args):
        out = args[0]
        for i, ty in enumerate(sig.args[0].types):
            src = make_array(ty)(context, builder, builder.extract_value(args[0], i))
            dst = make_array(ty)(context, builder)
            populate_array(
                dst, data=src.data, shape=src.shape, strides=src.strides, itemsize=src.itemsize, meminfo=None
            )
            out = builder.insert_value(out, dst._getvalue(), i)
        return out

    return state(state), codegen


@intrinsic
def flat(typingctx, a):
    """A C-contiguous array as one flat row over the same memory, with no reference count
    (valid while ``a`` is, as :func:`borrow`'s arrays): ``reshape`` calls into the runtime, and a
    flat loop over a flat source vectorises where nested ones do not."""
    if not isinstance(a, types.Array) or a.layout != "C":
        return None
    out_type = a.copy(ndim=1)

    def codegen(context, builder, sig, args):
        src = make_array(a)(context, builder, args[0])
        dst = make_array(out_type)(context, builder)
        size = context.get_constant(types.intp, 1)
        for dim in cgutils.unpack_tuple(builder, src.shape, a.ndim):
            size = builder.mul(size, dim)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(context.get_data_type(a.dtype)))
        shape = cgutils.pack_array(builder, [size])
        strides = cgutils.pack_array(builder, [itemsize])
        populate_array(dst, data=src.data, shape=shape, strides=strides, itemsize=src.itemsize, meminfo=None)
        return dst._getvalue()

    return out_type(a), codegen
