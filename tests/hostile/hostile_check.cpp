// Grades one hostile submission (tests/hostile/cases.json names it and what it
// attacks) and checks every property of docs/security.md's corpus:
//   - the grader finishes within the part's time limit plus a small margin;
//   - the attacked part scores 0 with a clear reason and the failure kind batch
//     grading counts ("kind"), the other part full marks (or, where the audit of
//     the object found what the attack calls, its right outputs held for review);
//   - the results file is the grader's own, also after the grader has exited;
//   - no process of the submission is left running (and, for the fork bomb,
//     no more ran at once than the process limit);
//   - nothing outside the case's work folder changed (datasets, the build
//     cache, the sources, HOME, /tmp, /etc, /root, /usr);
//   - the secret seed of the hidden datasets does not leak; no connection leaves.
// With a "control" entry it then grades the same file with --no-sandbox and
// checks that the attack does work there, so that the test cannot pass for
// the wrong reason.
// With the mode `user` (root only; exits 77, skipped, otherwise) it grades as
// Gradescope's container does: bubblewrap fails as it does without namespaces
// and `--sandbox auto` isolates the submission as an unprivileged user. The
// project's files are then copied into a private folder (not linked: the
// checkout is readable by every user) and the control run is left out (the
// bwrap mode proves it).
// Usage: hostile_check GPULAB PROJECT_ROOT CASES_JSON SUBMISSION WORK_DIR [bwrap|user]
// (SUBMISSION: a file of tests/hostile; its #include "hostile_common.cuh" is inlined.)
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {
int failures = 0;
void check(bool ok, const std::string& what) {
  std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
  if (!ok) ++failures;
}

// "" when it cannot be read (a /proc file of a process that has just ended throws).
std::string read_file(const fs::path& p) {
  try {
    std::ifstream in(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
  } catch (const std::exception&) {
    return "";
  }
}
void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }
std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}
double since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Processes whose command line names `marker` (the case's own build cache: every process of
// the submission runs a program from there, forked copies included), bubblewrap's own not counted.
std::vector<pid_t> processes_with(const std::string& marker) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
    const std::string cmd = read_file(e.path() / "cmdline");
    const std::string program = cmd.c_str();  // argv[0]
    const bool sandbox = program.size() >= 5 && program.compare(program.size() - 5, 5, "bwrap") == 0;
    if (cmd.find(marker) != std::string::npos && !sandbox && std::stoi(name) != getpid()) {
      out.push_back(std::stoi(name));
    }
  }
  return out;
}

// Every file under `root` with its size and modification time, to see what changed.
std::map<std::string, std::string> snapshot(const fs::path& root) {
  std::map<std::string, std::string> s;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    const auto st = fs::symlink_status(it->path(), ec);
    std::string v = std::to_string(static_cast<int>(st.type()));
    if (fs::is_regular_file(st)) {
      v += ":" + std::to_string(fs::file_size(it->path(), ec)) + ":" +
           std::to_string(fs::last_write_time(it->path(), ec).time_since_epoch().count());
    }
    s[it->path().string()] = v;
  }
  return s;
}

std::vector<std::string> differences(const std::map<std::string, std::string>& a,
                                     const std::map<std::string, std::string>& b) {
  std::vector<std::string> d;
  for (const auto& [k, v] : a)
    if (!b.count(k) || b.at(k) != v) d.push_back(k);
  for (const auto& [k, v] : b)
    if (!a.count(k)) d.push_back(k + " (new)");
  return d;
}

// Files under `root` (not following links) that contain the escape marker.
std::vector<std::string> files_with_marker(const fs::path& root, const std::string& marker) {
  std::vector<std::string> hits;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(root, fs::directory_options::skip_permission_denied, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (!fs::is_regular_file(fs::symlink_status(it->path(), ec))) continue;
    if (read_file(it->path()).find(marker) != std::string::npos) hits.push_back(it->path().string());
  }
  return hits;
}

std::vector<std::string> tmp_escapes() {
  std::vector<std::string> hits;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator("/tmp", ec))
    if (e.path().filename().string().rfind("gpulab-hostile", 0) == 0) hits.push_back(e.path().string());
  return hits;
}

struct Run {
  int status = -1;
  double wall = 0;
  size_t max_processes = 0;
  std::string log;
};

// Runs the grader with its own environment; samples the submission's processes meanwhile.
Run run_grader(const std::vector<std::string>& argv, const std::map<std::string, std::string>& env,
               const std::string& marker, const fs::path& log, double give_up_s) {
  Run r;
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // if this test dies, the grader dies (and with it the sandbox)
    const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 1);
    dup2(fd, 2);
    for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  for (;;) {
    if (waitpid(pid, &status, WNOHANG) == pid) break;
    r.max_processes = std::max(r.max_processes, processes_with(marker).size());
    if (since(start) > give_up_s) {
      std::printf("FAIL: the grader did not finish within %.0f s; killing it\n", give_up_s);
      ++failures;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  r.wall = since(start);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.log = read_file(log);
  return r;
}

// Kills what is left (never leaving a process behind, even when a check failed).
size_t kill_leftovers(const std::string& marker) {
  const std::vector<pid_t> left = processes_with(marker);
  for (pid_t p : left) kill(p, SIGKILL);
  return left.size();
}

// A TCP listener on 127.0.0.1:port; -1 if the port is taken.
int listen_on(int port) {
  const int s = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
  const int one = 1;
  setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(s, 16) != 0) {
    close(s);
    return -1;
  }
  return s;
}
int accepted(int listener) {
  int n = 0;
  for (int c; listener >= 0 && (c = accept(listener, nullptr, nullptr)) >= 0; ++n) close(c);
  return n;
}

const json* part_of(const json& r, const std::string& name) {
  for (const json& p : r.at("parts"))
    if (p.at("name") == name) return &p;
  return nullptr;
}
}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: %s GPULAB PROJECT_ROOT CASES_JSON SUBMISSION WORK_DIR [bwrap|user]\n", argv[0]);
    return 2;
  }
  const bool user_mode = argc == 7 && std::string(argv[6]) == "user";
  if (user_mode && geteuid() != 0) {
    std::printf("skipped: the unprivileged-user sandbox needs the grader to run as root\n");
    return 77;
  }
  const std::string gpulab = fs::absolute(argv[1]).string();  // absolute: the runs start in work/cwd
  const fs::path root = fs::absolute(argv[2]);
  const json cases = json::parse(read_file(argv[3]));
  const std::string name = argv[4];
  const fs::path work = fs::absolute(argv[5]);
  json spec;
  for (const json& c : cases.at("cases"))
    if (c.at("submission") == name) spec = c;
  if (spec.is_null()) {
    std::fprintf(stderr, "%s names no case '%s'\n", argv[3], name.c_str());
    return 2;
  }
  const std::string lab = cases.at("lab");
  const std::string attacked = cases.at("attacked_part");
  const std::string other = cases.at("other_part");
  const json limits = cases.at("limits");
  const double wall_s = limits.at("wall_s");

  // A project home whose lab.json carries the test's small limits; everything else is the project's.
  std::error_code ec;
  fs::remove_all(work, ec);
  const fs::path home = work / "home", cache = work / "cache", user_home = work / "user-home";
  fs::create_directories(home / "assignments" / lab);
  // Every grader run starts in a folder of its own inside the work folder: a submission graded with
  // --no-sandbox (the control runs) writes where it likes, as fake_results.cu writes results.json and
  // ../results.json relative to its working folder, and those must land here, never in the checkout.
  fs::create_directories(work / "cwd");
  fs::current_path(work / "cwd");
  std::string grader = gpulab;
  if (user_mode) {
    fs::permissions(work, fs::perms::owner_all);  // what Gradescope's scripts do to /autograder
    // gpulab itself from the private folder too: its build folder holds compiled reference code.
    fs::create_directories(work / "bin");
    fs::create_hard_link(gpulab, work / "bin/gpulab", ec);
    if (ec) fs::copy_file(gpulab, work / "bin/gpulab");
    grader = (work / "bin/gpulab").string();
    fs::copy(root / "grader", home / "grader", fs::copy_options::recursive);
    for (const char* d : {"reference", "datasets"}) {
      fs::create_directories(home / d);
      fs::copy(root / d / lab, home / d / lab, fs::copy_options::recursive);
    }
  } else {
    for (const char* d : {"grader", "reference", "datasets"}) fs::create_directory_symlink(root / d, home / d);
  }
  json lab_json = json::parse(read_file(root / "assignments" / lab / "lab.json"));
  lab_json["limits"] = limits;
  write_file(home / "assignments" / lab / "lab.json", lab_json.dump(2));
  fs::create_directories(cache / "zz-canary");
  write_file(cache / "zz-canary/program", "another submission's build\n");
  fs::create_directories(user_home);
  write_file(user_home / ".bashrc", "# canary\n");
  // The submission as a student would hand it in: one file, the shared part inlined (the
  // emulator rewrites kernel launches in the submitted file only, not in its headers).
  const fs::path submission = work / "submission" / name;
  fs::create_directories(submission.parent_path());
  std::string source = read_file(root / "tests/hostile" / name);
  const std::string include = "#include \"hostile_common.cuh\"\n";
  if (const size_t at = source.find(include); at != std::string::npos) {
    source.replace(at, include.size(), read_file(root / "tests/hostile/hostile_common.cuh"));
  }
  write_file(submission, source);
  const std::string secret = "hostile-secret-" + std::to_string(getpid());
  const std::string marker = std::string("HOSTILE") + "-WAS-HERE";

  const std::vector<fs::path> watched = {
      root / "datasets" / lab, root / "tests/hostile", root / "reference" / lab, root / "assignments" / lab, user_home,
      cache / "zz-canary"};
  std::map<std::string, std::string> before;
  for (const fs::path& w : watched) before.merge(snapshot(w));
  const std::string passwd_before = read_file("/etc/passwd");
  const std::vector<std::string> tmp_before = tmp_escapes();
  // Only the network case listens, on the port its source names.
  const int port = spec.value("listen_port", 0);
  const int listener = port ? listen_on(port) : -1;
  if (port && listener < 0)
    check(false, "port " + std::to_string(port) + " on 127.0.0.1 is free for the test to listen on");

  const fs::path results = work / "results.json";
  // Two emulator workers whatever the machine, so that the small process and memory limits fit.
  std::map<std::string, std::string> env = {{"GPULAB_HOME", home.string()},
                                            {"GPULAB_CACHE", cache.string()},
                                            {"HOME", user_home.string()},
                                            {"GPULAB_HIDDEN_SEED", secret},
                                            {"GPULAB_EMU_WORKERS", "2"}};
  std::vector<std::string> grade = {grader,     "grade", lab,     submission.string(), "--no-large", "--no-hidden",
                                    "--format", "json",  "--out", results.string()};
  if (user_mode) {
    // A bubblewrap that fails as it does in a container without namespaces, beside the work folder.
    const fs::path fake = work.parent_path() / ("fake-bwrap-" + std::to_string(getpid()));
    write_file(fake,
               "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because the kernel "
               "does not allow non-privileged user namespaces.' >&2\nexit 1\n");
    fs::permissions(fake, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                              fs::perms::others_read | fs::perms::others_exec);
    env["GPULAB_BWRAP"] = fake.string();
    grade.insert(grade.end(), {"--sandbox", "auto"});
  }
  std::printf("grading %s (limits %s)\n", name.c_str(), limits.dump().c_str());
  const Run run = run_grader(grade, env, cache.string(), work / "grade.log", 300);
  if (user_mode) fs::remove(env.at("GPULAB_BWRAP"), ec);
  const std::string first_results = read_file(results);
  // A process left behind would act now: give it time to, then look.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  const size_t left = kill_leftovers(cache.string());

  check(run.status == 0, "gpulab grade exits 0 (got " + std::to_string(run.status) + ")");
  json r;
  try {
    r = json::parse(read_file(results));
  } catch (const json::exception& e) {
    std::printf("FAIL: the results file is not the grader's JSON: %s\n%s\n", e.what(), run.log.c_str());
    return 1;
  }
  check(read_file(results) == first_results, "the results file is unchanged after the grader exited");
  check(r.value("schema", "") == "gpulab-results/1" && r.contains("parts"), "the results file is the grader's own");
  check(first_results.find("HACKED") == std::string::npos, "no fake results in the results file");
  check(first_results.find(secret) == std::string::npos && run.log.find(secret) == std::string::npos,
        "the hidden seed does not appear in the results or the grader's output");
  if (!r.value("compiled", false)) {
    std::printf("FAIL: the submission did not compile:\n%s\n", r.value("compile_output", std::string()).c_str());
    return 1;
  }
  const std::string isolation = r.value("isolation", "");
  check(isolation.find(user_mode ? "unprivileged user" : "bubblewrap") != std::string::npos,
        "the results name the isolation: " + isolation);
  check(left == 0, "no process of the submission is left running (found " + std::to_string(left) + ")");

  // Scores and reasons.
  const json* hit = part_of(r, attacked);
  const json* spared = part_of(r, other);
  if (!hit || !spared) {
    std::printf("FAIL: parts '%s' and '%s' are not both in the results\n", attacked.c_str(), other.c_str());
    return 1;
  }
  check(hit->at("score").get<double>() == 0, "part " + attacked + " scores 0 (got " + hit->at("score").dump() + ")");
  if (r.value("audit", json::array()).empty()) {
    check(spared->at("score").get<double>() >= spared->at("max_score").get<double>() - 1e-6,
          "part " + other + " keeps full marks (got " + spared->at("score").dump() + ")");
  } else {
    // The audit of the object found what the attack calls (fork, open, sockets, ...): what the
    // program reports of itself is withheld in every part, so the spared part's right outputs
    // are held for review, not lost to the attack.
    bool held = true;
    for (const json& c : spared->at("cases")) {
      held = held && c.value("failure_kind", std::string()) == "tampering" &&
             c.at("feedback").get<std::string>().find("your outputs match the expected ones") != std::string::npos;
    }
    check(held, "part " + other + "'s outputs are right in every case, held for review after the audit's " +
                    std::to_string(r.at("audit").size()) + " finding(s)");
    check(!r.value("review", json::array()).empty(), "the submission is listed for the instructor's review");
  }
  const std::string reason = hit->at("cases").at(0).at("feedback");
  bool named = false;
  for (const json& want : spec.at("reason")) named = named || lower(reason).find(lower(want)) != std::string::npos;
  check(named, "the first case's feedback gives the reason " + spec.at("reason").dump() + ": \"" +
                   reason.substr(0, 300) + "\"");
  // The kind batch's failure classes count, set where the grader found the failure.
  const std::string kind = hit->at("cases").at(0).value("failure_kind", std::string("(none written)"));
  check(kind == spec.value("kind", std::string()),
        "the first case's failure_kind is \"" + spec.value("kind", std::string()) + "\" (got \"" + kind + "\")");
  for (const json& c : hit->at("cases")) {
    if (!c.at("passed").get<bool>() && c.at("feedback").get<std::string>().empty()) {
      check(false, "every failed case says why (" + c.at("label").get<std::string>() + " does not)");
    }
  }

  // Time: no case past its limit, one limit's worth per part, nothing waited for outside the cases.
  double attacked_s = 0, cases_s = 0, longest = 0;
  size_t attacked_runs = 0;
  for (const json& p : r.at("parts")) {
    for (const json& c : p.at("cases")) {
      const double s = c.at("seconds");
      cases_s += s;
      longest = std::max(longest, s);
      if (p.at("name") == attacked) {
        attacked_s += s;
        attacked_runs += s > 0;
      }
    }
  }
  const double compile_s = r.at("compile_seconds");
  char line[400];
  std::snprintf(line, sizeof line,
                "times: grader %.2f s, compile %.2f s, cases %.2f s (part %s: %.2f s over %zu runs, longest %.2f s)",
                run.wall, compile_s, cases_s, attacked.c_str(), attacked_s, attacked_runs, longest);
  std::printf("%s\n", line);
  check(longest <= wall_s + 1.0, "no run lasts longer than the time limit + 1 s");
  check(attacked_s <= wall_s + 1.0 + 0.4 * attacked_runs,
        "part " + attacked + " costs at most one time limit (+ 0.4 s per run)");
  // The grader's own work (datasets, sandbox, reports) slows with the machine's load as compiling
  // does: 5 s, plus half the compile time up to 15 s in all. A process left waiting on the grader
  // (fake_results.cu's children live 30 s) would still show.
  const double own_work_s = std::min(15.0, 5.0 + 0.5 * compile_s);
  std::snprintf(line, sizeof line, "the grader waits for nothing but the runs (+ %.1f s)", own_work_s);
  check(run.wall - compile_s <= cases_s + own_work_s, line);
  if (spec.contains("max_processes")) {
    const size_t cap = spec.at("max_processes");
    check(run.max_processes <= cap && run.max_processes >= 2, "at most " + std::to_string(cap) +
                                                                  " of its processes ran at once (saw " +
                                                                  std::to_string(run.max_processes) + ")");
  }

  // Nothing outside the work folder changed.
  std::map<std::string, std::string> after;
  for (const fs::path& w : watched) after.merge(snapshot(w));
  const std::vector<std::string> changed = differences(before, after);
  std::string list;
  for (const std::string& c : changed) list += " " + c;
  check(changed.empty(), "datasets, sources, reference, lab, HOME and the cache canary are unchanged" + list);
  std::vector<std::string> marked = files_with_marker(cache, marker);
  for (const fs::path& w : {fs::path(user_home), home / "assignments"}) {
    const auto more = files_with_marker(w, marker);
    marked.insert(marked.end(), more.begin(), more.end());
  }
  list.clear();
  for (const std::string& m : marked) list += " " + m;
  check(marked.empty(), "no file in the build cache or HOME was written by the submission" + list);
  check(read_file("/etc/passwd") == passwd_before, "/etc/passwd is unchanged");
  for (const char* p : {"/root/gpulab-hostile", "/etc/gpulab-hostile", "/usr/gpulab-hostile"}) {
    check(!fs::exists(p, ec), std::string(p) + " was not created");
  }
  check(tmp_escapes() == tmp_before, "nothing named gpulab-hostile* appeared in /tmp");
  const int connections = accepted(listener);
  if (listener >= 0) {
    check(connections == 0,
          "no connection reached 127.0.0.1:" + std::to_string(port) + " (" + std::to_string(connections) + " did)");
  }

  // The control: the same attack without the sandbox must work, or the test proves nothing.
  if (spec.contains("control") && !user_mode) {
    const json& want = spec.at("control");
    std::vector<std::string> loose = grade;
    loose.push_back("--no-sandbox");
    const fs::path loose_results = work / "results.json";
    const Run c = run_grader(loose, env, cache.string(), work / "control.log", 300);
    const std::string loose_first = read_file(loose_results);
    std::this_thread::sleep_for(std::chrono::milliseconds(2000));
    kill_leftovers(cache.string());
    const std::string loose_after = read_file(loose_results);
    if (want.value("scores_full", false)) {
      json lr = json::parse(loose_first, nullptr, false);
      const json* p = lr.is_discarded() ? nullptr : part_of(lr, attacked);
      // The attack works when its outputs are the expected ones: full marks, or, where the audit
      // found what it calls (reading a file), every case's right outputs held for review.
      bool matched = p && !p->at("cases").empty();
      if (p) {
        for (const json& c : p->at("cases")) {
          matched = matched && (c.value("passed", false) ||
                                c.value("feedback", std::string()).find("your outputs match the expected ones") !=
                                    std::string::npos);
        }
      }
      check(matched, "control: without the sandbox the attack's outputs are the expected ones in part " + attacked);
    }
    if (want.value("overwrites_results", false)) {
      check(loose_after.find("HACKED") != std::string::npos,
            "control: without the sandbox a leftover process overwrites the results file");
    }
    if (want.value("leaks_secret", false)) {
      check(loose_first.find(secret) != std::string::npos, "control: without the sandbox the hidden seed leaks");
    }
    if (want.value("connects", false)) {
      check(accepted(listener) > 0, "control: without the sandbox the connection gets through");
    }
    std::printf("control: gpulab grade --no-sandbox exited %d after %.2f s\n", c.status, c.wall);
  }
  if (listener >= 0) close(listener);
  kill_leftovers(cache.string());

  if (failures) {
    std::printf("---- grader output\n%s\n---- attacked part\n%s\n", run.log.substr(0, 4000).c_str(),
                hit->dump(1).substr(0, 6000).c_str());
    std::printf("%d check(s) failed\n", failures);
    return 1;
  }
  fs::remove_all(work, ec);
  std::printf("all checks passed\n");
  return 0;
}
