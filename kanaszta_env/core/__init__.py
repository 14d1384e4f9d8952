"""The vectorised rules core: state arrays and numba kernels over whole batches."""
