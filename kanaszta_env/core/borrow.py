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

from numba.core import types
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
