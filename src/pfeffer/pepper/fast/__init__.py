"""Compiled (numba) Pepper kernels: a fast hand state (:mod:`.kernel`), the card tables as arrays
(:mod:`.tables`) and the double-dummy solver (:mod:`.dd`). Importing this package imports numba;
``pfeffer.pepper`` itself does not until a solver function is called.
"""
