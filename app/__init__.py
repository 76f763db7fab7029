"""The renju rating service."""

import os

# NumPy advises the kernel to back every array of 4 MB or more with transparent huge pages (where the
# system's policy is "madvise", Debian's default). The first WHR fit of a process then spent 0.1-0.3 s
# of kernel time zeroing 2 MB pages for arrays that live milliseconds, and the fits after it gained
# nothing from them (docs/decisions.md 103). NumPy reads this setting once, when it is first
# imported, which is after this package: a value set in the environment wins.
os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")
