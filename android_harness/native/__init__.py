"""The native device runner ``edgecl-runner``: its C++ sources and the build that caches it per ABI."""
from android_harness.native.build import BINARY as BINARY_NAME, build_runner, output_dir, run_prefix, runner_ops, source_key
from android_harness.native.errors import NativeBuildError, ToolchainMissing
from android_harness.native.toolchain import ABIS

__all__ = ["ABIS", "BINARY_NAME", "NativeBuildError", "ToolchainMissing", "build_runner", "output_dir", "run_prefix", "runner_ops",
           "source_key"]
