"""What every game's kernels share: the config vector's layout, per-game random numbers,
the common counts, the binding of a variant's rule set and random play over batches."""
