// Implementation of run.hpp: fork/exec in a new process group, a close-on-exec
// pipe that carries an exec or set-up failure back to the parent, poll for
// output and exit, SIGKILL the group (and a sandbox's PID namespace) on a
// limit or an interruption.
#include "process/run.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>

#include "process/interruption.hpp"
#include "process/resident_memory.hpp"
#include "platform/process_control.hpp"

namespace gpulab::process {
namespace {
double since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// bwrap's --info-fd text is a JSON object with "child-pid": N.
pid_t sandbox_pid(const std::string& info) {
  const size_t key = info.find("\"child-pid\"");
  if (key == std::string::npos) return 0;
  const size_t colon = info.find(':', key);
  if (colon == std::string::npos) return 0;
  char* end = nullptr;
  const long pid = std::strtol(info.c_str() + colon + 1, &end, 10);
  return end && (*end == ',' || *end == '\n' || *end == '}' || *end == ' ') && pid > 1 ? static_cast<pid_t>(pid) : 0;
}

void write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) done += static_cast<size_t>(n);
  }
}

[[noreturn]] void exec_child(const std::vector<std::string>& argv, const ProcessOptions& o, int out_fd, int error_fd) {
  setpgid(0, 0);
  // Killed with gpulab, even by SIGKILL, which gives gpulab no chance to stop it. (The signal
  // comes when the forking thread ends; every thread waits for the children it starts.)
  platform::end_with_parent();  // Linux only: macOS has no such request (platform/process_control.hpp)
  // The child starts with default signal handling, whatever gpulab installed.
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);  // never the grader's terminal or input
  if (out_fd >= 0) {
    dup2(out_fd, STDOUT_FILENO);
    dup2(out_fd, STDERR_FILENO);
  }
  for (int fd : o.hand_over_fds) fcntl(fd, F_SETFD, 0);
  if (o.clear_environment) clearenv();
  for (const auto& [k, v] : o.env) setenv(k.c_str(), v.c_str(), 1);
  if (o.before_exec) {
    std::string message;
    if (!o.before_exec(message)) {
      write_all(error_fd, message.empty() ? "the set-up before starting it failed" : message);
      _exit(126);
    }
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  if (o.search_path) execvp(args[0], args.data());
  else execv(args[0], args.data());
  write_all(error_fd, "cannot run '" + argv[0] + "': " + std::strerror(errno));
  _exit(127);
}

// What the child wrote on the error pipe before exec: empty once exec succeeded (the pipe closed).
std::string read_spawn_error(int fd) {
  std::string text;
  char buf[1024];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n > 0) text.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) break;
  }
  return text;
}
}  // namespace

ProcessResult run(const std::vector<std::string>& argv, const ProcessOptions& o) {
  ProcessResult r;
  auto close_handed = [&] {
    for (int fd : o.hand_over_fds) close(fd);
    if (o.sandbox_info_fd >= 0) close(o.sandbox_info_fd);
  };
  if (argv.empty()) {
    close_handed();
    r.spawn_error = "nothing to run (an empty command)";
    return r;
  }
  int out[2] = {-1, -1}, err[2];
  if ((o.capture_output && !platform::cloexec_pipe(out)) || !platform::cloexec_pipe(err)) {
    r.spawn_error = std::string("cannot create a pipe: ") + std::strerror(errno);
    if (out[0] >= 0) {
      close(out[0]);
      close(out[1]);
    }
    close_handed();
    return r;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) exec_child(argv, o, out[1], err[1]);
  if (out[1] >= 0) close(out[1]);
  close(err[1]);
  for (int fd : o.hand_over_fds) close(fd);
  if (pid < 0) {
    r.spawn_error = std::string("cannot start a process (fork: ") + std::strerror(errno) + ")";
    if (out[0] >= 0) close(out[0]);
    close(err[0]);
    if (o.sandbox_info_fd >= 0) close(o.sandbox_info_fd);
    return r;
  }
  setpgid(pid, pid);
  r.spawn_error = read_spawn_error(err[0]);
  close(err[0]);
  int status = 0;
  if (!r.spawn_error.empty()) {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (out[0] >= 0) close(out[0]);
    if (o.sandbox_info_fd >= 0) close(o.sandbox_info_fd);
    return r;
  }

  const int out_fd = out[0];
  if (out_fd >= 0) fcntl(out_fd, F_SETFL, O_NONBLOCK);
  if (o.sandbox_info_fd >= 0) fcntl(o.sandbox_info_fd, F_SETFL, O_NONBLOCK);
  std::string info;
  pid_t inner = 0;
  bool truncated = false;
  bool open_pipe = out_fd >= 0;
  bool exited = false;
  char buf[65536];
  // Markers are found in everything read, the output cap notwithstanding, and timestamped on arrival.
  const std::string marker_start = kMarkerStart;
  std::string marker_tail;
  double step_start = 0;  // when the current step began (step_limit_s)
  auto find_markers = [&](const char* data, size_t n) {
    if (!std::memchr(data, kMarkerEnd, n) && marker_tail.empty()) return;
    const double now = since(start);
    marker_tail.append(data, n);
    for (size_t at; (at = marker_tail.find(marker_start)) != std::string::npos;) {
      const size_t end = marker_tail.find(kMarkerEnd, at + marker_start.size());
      if (end == std::string::npos) break;
      if (r.markers.size() < 8000) {
        r.markers.push_back({marker_tail.substr(at + marker_start.size(), end - at - marker_start.size()), now});
        if (r.markers.back().name.rfind(kStepMarker, 0) == 0) step_start = now;
      }
      marker_tail.erase(0, end + 1);
    }
    // Keep only what may begin a marker that the next read completes.
    const size_t keep = marker_start.size() + 32;
    const size_t last = marker_tail.rfind(kMarkerEnd);
    if (last == std::string::npos || marker_tail.size() - last > keep) marker_tail.clear();
    else marker_tail.erase(0, last);
  };
  auto take = [&](const char* data, size_t n) {
    find_markers(data, n);
    const size_t room = o.output_cap ? o.output_cap - std::min(o.output_cap, r.output.size()) : n;
    if (n > room) truncated = true;
    r.output.append(data, std::min(n, room));
  };
  auto read_info = [&] {
    if (o.sandbox_info_fd < 0 || inner) return;
    const ssize_t n = read(o.sandbox_info_fd, buf, sizeof buf);
    if (n > 0) info.append(buf, static_cast<size_t>(n));
    inner = sandbox_pid(info);
  };
  // Kills the sandbox's namespace (if any) and then the process group, and reaps the child.
  auto stop = [&] {
    read_info();
    if (inner) {
      kill(inner, SIGKILL);
      // bwrap exits once its namespace is empty; give the kernel a moment to end every process in it.
      for (int i = 0; i < 500 && waitpid(pid, &status, WNOHANG) == 0; ++i) usleep(10000);
    }
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    if (waitpid(pid, &status, WNOHANG) == 0) waitpid(pid, &status, 0);
    exited = true;
  };
  int interrupted = 0;
  auto last_memory_check = start;
  for (;;) {
    read_info();
    if ((interrupted = interrupt_signal()) != 0) {
      stop();
      break;
    }
    if ((o.time_limit_s > 0 && since(start) > o.time_limit_s) ||
        (o.step_limit_s > 0 && since(start) - step_start > o.step_limit_s)) {
      r.timed_out = true;
      stop();
      break;
    }
    if (o.resident_limit_bytes > 0 && since(last_memory_check) >= 0.1) {
      last_memory_check = std::chrono::steady_clock::now();
      const size_t resident = tree_resident_bytes(pid);
      r.peak_resident_bytes = std::max(r.peak_resident_bytes, resident);
      if (resident > o.resident_limit_bytes) {
        r.memory_exceeded = true;
        stop();
        break;
      }
    }
    if (open_pipe) {
      pollfd p{out_fd, POLLIN, 0};
      poll(&p, 1, 50);
      for (;;) {
        const ssize_t n = read(out_fd, buf, sizeof buf);
        if (n > 0) {
          take(buf, static_cast<size_t>(n));
        } else {
          if (n == 0) open_pipe = false;
          break;
        }
      }
      if (truncated && o.stop_at_output_cap) {
        r.output_exceeded = true;
        stop();
        break;
      }
    } else {
      usleep(o.capture_output ? 20000 : 5000);
    }
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      exited = true;
      ssize_t n;
      while (open_pipe && (n = read(out_fd, buf, sizeof buf)) > 0) take(buf, static_cast<size_t>(n));
      if (truncated && o.stop_at_output_cap) r.output_exceeded = true;
      break;
    }
  }
  kill(-pid, SIGKILL);  // nothing of the process outlives it
  if (out_fd >= 0) close(out_fd);
  if (o.sandbox_info_fd >= 0) close(o.sandbox_info_fd);
  if (interrupted) throw Interrupted(interrupted);
  r.seconds = since(start);
  if (exited) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  // The markers are the harness's, not the program's output.
  for (size_t at; (at = r.output.find(marker_start)) != std::string::npos;) {
    const size_t end = r.output.find(kMarkerEnd, at + marker_start.size());
    r.output.erase(at, end == std::string::npos ? std::string::npos : end + 1 - at);
  }
  if (truncated) {
    r.output += "\n[output truncated at " + std::to_string(o.output_cap / 1024) + " KiB]\n";
  }
  return r;
}

bool nvidia_gpu_visible() {
  ProcessOptions o;
  o.search_path = true;
  o.time_limit_s = 30;
  const ProcessResult r = run({"nvidia-smi", "-L"}, o);
  return r.started() && r.status() == 0;
}

}  // namespace gpulab::process
