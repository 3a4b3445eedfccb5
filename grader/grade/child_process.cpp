// fork/exec in a new process group, poll for exit, SIGKILL the group on timeout.
#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace gpulab::grade {

ChildResult run_child(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
                      double time_limit_s, size_t output_cap) {
  ChildResult r;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    r.output = std::string("cannot create a pipe: ") + std::strerror(errno);
    return r;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    setpgid(0, 0);
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  if (pid < 0) {
    close(fds[0]);
    r.output = std::string("cannot fork: ") + std::strerror(errno);
    return r;
  }
  setpgid(pid, pid);
  fcntl(fds[0], F_SETFL, O_NONBLOCK);
  bool truncated = false;
  bool open_pipe = true;
  int status = 0;
  bool exited = false;
  char buf[65536];
  for (;;) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (elapsed > time_limit_s) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      exited = true;
      break;
    }
    if (open_pipe) {
      pollfd p{fds[0], POLLIN, 0};
      poll(&p, 1, 50);
      for (;;) {
        const ssize_t n = read(fds[0], buf, sizeof buf);
        if (n > 0) {
          const size_t room = output_cap - r.output.size();
          if (static_cast<size_t>(n) > room) truncated = true;
          r.output.append(buf, std::min(static_cast<size_t>(n), room));
        } else {
          if (n == 0) open_pipe = false;
          break;
        }
      }
    } else {
      usleep(20000);
    }
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) {
      exited = true;
      // Drain what is left.
      ssize_t n;
      while (open_pipe && (n = read(fds[0], buf, sizeof buf)) > 0) {
        const size_t room = output_cap - r.output.size();
        if (static_cast<size_t>(n) > room) truncated = true;
        r.output.append(buf, std::min(static_cast<size_t>(n), room));
      }
      break;
    }
  }
  kill(-pid, SIGKILL);  // nothing of the submission outlives it
  close(fds[0]);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (exited) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  if (truncated) r.output += "\n[output truncated at " + std::to_string(output_cap / 1024) + " KiB]\n";
  return r;
}

}  // namespace gpulab::grade
