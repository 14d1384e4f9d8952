"""The rule kernels of Turkish kanasta (docs/rules/turkish.md, T1-T17): sets and runs in
meld slots, the two Fi packets, per-player openings and per-pair scores."""
