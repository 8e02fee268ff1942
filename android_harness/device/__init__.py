"""Code that runs ON the device (standard library, numpy and runtime bindings only)."""
