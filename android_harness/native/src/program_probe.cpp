#include "program_probe.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <vector>

namespace edgecl {
namespace {

/// The trial itself (in the child): its exit code says whether the runtime returned an error.
int trial(Program& program) {
  const Signature& sig = program.signature();
  std::vector<std::vector<char>> buffers;
  std::vector<InputTensor> inputs;
  for (const TensorSpec& spec : sig.inputs) {
    buffers.emplace_back(spec.nbytes(), 0);   // zeros: valid labels, masks and weights of any dtype
    inputs.push_back({buffers.back().data(), spec.dtype, spec.numel()});
  }
  // As a session runs it (sparse execution where there are masks), so the trial's arena is laid out
  // as a session's would be and holds no more memory than a session does.
  if (!sig.mask_names.empty() && !program.set_sparse(true).ok()) return 1;
  if (!program.forward_backward(inputs).ok()) return 1;
  const int rows = static_cast<int>(sig.batch_size);
  std::vector<float> x(sig.inputs[0].numel(), 0.0f);
  std::vector<float> logits(static_cast<size_t>(rows) * sig.num_classes);
  return program.eval(x.data(), rows, logits.data()).ok() ? 0 : 1;
}

}  // namespace

Error probe_program(Program& program, const std::string& model_dir) {
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return Error(ErrorCode::Internal, model_dir + ": cannot start the program's trial: " + std::strerror(errno));
  if (pid == 0) ::_exit(trial(program));   // no destructors, no atexit: the parent owns everything
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Error(ErrorCode::Internal, model_dir + ": lost the program's trial: " + std::strerror(errno));
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    return Error(ErrorCode::InvalidProgram, model_dir + ": the export crashes the runtime on a trial step (signal " +
                 std::to_string(sig) + ", " + (strsignal(sig) ? strsignal(sig) : "?") +
                 "): a malformed or unsupported program; export it again");
  }
  return Error();   // a step that fails cleanly fails the session the same way, with its own message
}

}  // namespace edgecl
