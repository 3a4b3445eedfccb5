// fork/exec in a new process group, poll for exit, SIGKILL the group (and a
// sandbox's PID namespace) on timeout or when the output limit is passed.
#include "child_process.hpp"

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

namespace gpulab::grade {
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

[[noreturn]] void exec_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                             const ChildOptions& o, int out_fd) {
  setpgid(0, 0);
  const int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);  // never the grader's terminal or input
  dup2(out_fd, STDOUT_FILENO);
  dup2(out_fd, STDERR_FILENO);
  for (int fd : o.hand_over_fds) fcntl(fd, F_SETFD, 0);
  if (o.clear_environment) clearenv();
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  if (o.before_exec) {
    std::string message;
    if (!o.before_exec(message)) {
      message += "\n";
      (void)!write(STDERR_FILENO, message.data(), message.size());
      _exit(126);
    }
  }
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  execv(args[0], args.data());
  _exit(127);
}
}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      double time_limit_s, size_t output_cap) {
  ChildOptions o;
  o.time_limit_s = time_limit_s;
  o.output_cap = output_cap;
  return run_child(argv, env, o);
}

ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      const ChildOptions& o) {
  ChildResult r;
  const size_t output_cap = o.output_cap;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.output = std::string("cannot create a pipe: ") + std::strerror(errno);
    for (int fd : o.hand_over_fds) close(fd);
    if (o.sandbox_info_fd >= 0) close(o.sandbox_info_fd);
    return r;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) exec_child(argv, env, o, fds[1]);
  close(fds[1]);
  for (int fd : o.hand_over_fds) close(fd);
  if (pid < 0) {
    close(fds[0]);
    if (o.sandbox_info_fd >= 0) close(o.sandbox_info_fd);
    r.output = std::string("cannot fork: ") + std::strerror(errno);
    return r;
  }
  setpgid(pid, pid);
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  if (o.sandbox_info_fd >= 0) fcntl(o.sandbox_info_fd, F_SETFL, O_NONBLOCK);
  std::string info;
  pid_t inner = 0;
  bool truncated = false;
  bool open_pipe = true;
  int status = 0;
  bool exited = false;
  char buf[65536];
  auto take = [&](const char* data, size_t n) {
    const size_t room = output_cap - r.output.size();
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
  for (;;) {
    read_info();
    if (since(start) > o.time_limit_s) {
      r.timed_out = true;
      stop();
      break;
    }
    if (open_pipe) {
      pollfd p{fds[0], POLLIN, 0};
      poll(&p, 1, 50);
      for (;;) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
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
      usleep(20000);
    }
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      exited = true;
      // Drain what is left.
      ssize_t n;
      while (open_pipe && (n = read(fds[0], buf, sizeof buf)) > 0) take(buf, static_cast<size_t>(n));
      if (truncated && o.stop_at_output_cap) r.output_exceeded = true;
      break;
    }
  }
  kill(-pid, SIGKILL);  // nothing of the submission outlives it
  close(fds[0]);
  if (o.sandbox_info_fd >= 0) close(o.sandbox_info_fd);
  r.seconds = since(start);
  if (exited) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  if (truncated) r.output += "\n[output truncated at " + std::to_string(output_cap / 1024) + " KiB]\n";
  return r;
}

}  // namespace gpulab::grade
