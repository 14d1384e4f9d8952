"""Arrays handed to a compiled function as one table of addresses.

A compiled entry unboxes each array argument on every call (about 50 ns each); a
``GameBatch`` owns some fifty. :func:`address_table` writes their data addresses,
extents and strides into one int64 array and :func:`unpack` rebuilds them inside the
compiled code, with no reference count (as :func:`~kanaszta_env.core.borrow.borrow`'s).
Whoever builds a table keeps the arrays alive and builds a new one when any is replaced.
"""

from __future__ import annotations

import numpy as np
from numba.core import cgutils, types
from numba.extending import intrinsic
from numba.np.arrayobj import make_array, populate_array


def address_table(owned: tuple) -> np.ndarray:
    """The int64 table a compiled function finds the arrays of ``owned`` by: for each array
    (``owned`` is a tuple of arrays and of tuples of arrays, read depth first) its data
    address, then its extents, then its strides in bytes.

    The table holds no reference to the arrays: whoever passes it keeps ``owned`` alive and
    builds a new table when any of the arrays is replaced."""
    entries: list[int] = []
    for a in _leaves(owned):
        entries += [a.ctypes.data, *a.shape, *a.strides]
    return np.array(entries, dtype=np.int64)


def _leaves(owned: tuple) -> list[np.ndarray]:
    out: list[np.ndarray] = []
    for item in owned:
        if isinstance(item, np.ndarray):
            out.append(item)
        else:
            out += _leaves(item)
    return out


@intrinsic
def unpack(typingctx, table, kinds):
    """The tuple ``kinds`` describes (a ``TypeRef`` of ``typeof(owned)``) over the memory that
    ``table`` (:func:`address_table` of ``owned``) addresses. Its arrays carry no reference
    count, as :func:`~kanaszta_env.core.borrow.borrow`'s: valid while ``owned`` is."""
    if not (
        isinstance(kinds, types.TypeRef)
        and isinstance(kinds.instance_type, types.BaseTuple)
        and isinstance(table, types.Array)
        and table.dtype == types.int64
        and table.ndim == 1
    ):
        return None
    target = kinds.instance_type

    def codegen(context, builder, sig, args):
        data = make_array(sig.args[0])(context, builder, args[0]).data
        intp = context.get_value_type(types.intp)
        at = 0

        def entry():
            nonlocal at
            value = builder.load(builder.gep(data, [context.get_constant(types.intp, at)]))
            at += 1
            return builder.trunc(value, intp) if value.type.width > intp.width else value

        def build(ty):
            if isinstance(ty, types.Array):
                item = context.get_data_type(ty.dtype)
                pointer = builder.inttoptr(entry(), item.as_pointer())
                shape = [entry() for _ in range(ty.ndim)]
                strides = [entry() for _ in range(ty.ndim)]
                array = make_array(ty)(context, builder)
                populate_array(
                    array,
                    data=pointer,
                    shape=cgutils.pack_array(builder, shape, ty=intp),
                    strides=cgutils.pack_array(builder, strides, ty=intp),
                    itemsize=context.get_constant(types.intp, context.get_abi_sizeof(item)),
                    meminfo=None,
                )
                return array._getvalue()
            value = cgutils.get_null_value(context.get_value_type(ty))
            for i, member in enumerate(ty.types):
                value = builder.insert_value(value, build(member), i)
            return value

        return build(target)

    return target(table, kinds), codegen
