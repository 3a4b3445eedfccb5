// Jail: mirroring a policy's binds, translating paths, copying back.
#include "jail.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace gpulab::sandbox {
namespace fs = std::filesystem;
namespace {
std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_all(const fs::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("cannot write '" + p.string() + "'");
}

bool is_json_file(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".json" || e == ".jsonl";
}

// `p` lies in `dir` or is `dir` (both lexically normal).
bool within(const fs::path& p, const fs::path& dir) {
  auto d = dir.begin(), q = p.begin();
  for (; d != dir.end(); ++d, ++q) {
    if (q == p.end() || *q != *d) return false;
  }
  return true;
}

void replace_all(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
}

void fail(const std::string& what, const fs::path& p) {
  throw std::runtime_error(what + " '" + p.string() + "': " + std::strerror(errno));
}

// Root-owned folders from the mirror down to `at` (each enterable and listable: they hold only staged entries).
void make_parents(const fs::path& root, const fs::path& at) {
  std::error_code ec;
  fs::create_directories(at.parent_path(), ec);
  for (fs::path d = at.parent_path(); within(d, root); d = d.parent_path()) {
    chmod(d.c_str(), 0755);
    if (d == root) break;
  }
}

// A read-only file: a hard link where the user may read (and run) it as it is, else a root-owned copy it may.
void mirror_file(const fs::path& from, const fs::path& to) {
  struct stat st {};
  if (lstat(to.c_str(), &st) == 0) return;  // already staged: a file named twice, or inside a staged folder
  if (stat(from.c_str(), &st) != 0) fail("cannot stage", from);
  const bool executable = st.st_mode & S_IXUSR;
  const bool others_may = (st.st_mode & S_IROTH) && (!executable || (st.st_mode & S_IXOTH));
  if (others_may && link(from.c_str(), to.c_str()) == 0) return;
  std::error_code ec;
  if (!fs::copy_file(from, to, fs::copy_options::overwrite_existing, ec)) {
    errno = ec.value();
    fail("cannot stage", from);
  }
  chmod(to.c_str(), executable ? 0755 : 0644);
}

void mirror_tree(const fs::path& from, const fs::path& to) {
  mkdir(to.c_str(), 0755);
  chmod(to.c_str(), 0755);
  std::error_code ec;
  for (const fs::directory_entry& e : fs::directory_iterator(from, ec)) {
    const fs::path target = to / e.path().filename();
    if (e.is_directory(ec)) mirror_tree(e.path(), target);
    else if (e.is_regular_file(ec)) mirror_file(e.path(), target);
  }
  if (ec) {
    errno = ec.value();
    fail("cannot list", from);
  }
}
}  // namespace

Jail::Jail(const fs::path& top, uid_t uid, gid_t gid)
    : top_(top), root_(top / "root"), tmp_(top / "tmp"), uid_(uid), gid_(gid) {
  chmod(top_.c_str(), 0711);
  if (mkdir(root_.c_str(), 0755) != 0 && errno != EEXIST) fail("cannot create", root_);
  if (mkdir(tmp_.c_str(), 0700) != 0 && errno != EEXIST) fail("cannot create", tmp_);
  if (chown(tmp_.c_str(), uid_, gid_) != 0) fail("cannot hand over", tmp_);
}

void Jail::stage(const SandboxPolicy& policy) {
  std::vector<const Bind*> binds;
  for (const Bind& b : policy.binds) {
    if (b.optional || b.kind == Bind::Kind::device) continue;  // the system, visible as it is
    binds.push_back(&b);
    staged_.push_back(fs::absolute(b.source).lexically_normal());
    if (b.kind == Bind::Kind::writable) writable_.push_back(staged_.back());
  }
  // Read-only ones first; then the writable folders, whose JSON requests name the staged paths.
  for (size_t i = 0; i < binds.size(); ++i) {
    if (binds[i]->kind == Bind::Kind::writable) continue;
    const fs::path at = root_ / staged_[i].relative_path();
    make_parents(root_, at);
    std::error_code ec;
    if (fs::is_directory(staged_[i], ec)) mirror_tree(staged_[i], at);
    else mirror_file(staged_[i], at);
  }
  for (const fs::path& w : writable_) {
    const fs::path at = root_ / w.relative_path();
    make_parents(root_, at);
    std::error_code ec;
    fs::create_directory(at, ec);
    if (chown(at.c_str(), uid_, gid_) != 0 || chmod(at.c_str(), 0700) != 0) fail("cannot hand over", at);
    for (auto it = fs::recursive_directory_iterator(w, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      const fs::path target = at / it->path().lexically_relative(w);
      const fs::file_status st = it->symlink_status(ec);
      if (fs::is_directory(st)) {
        fs::create_directory(target, ec);
      } else if (fs::is_regular_file(st)) {
        std::string text = read_all(it->path());
        if (is_json_file(it->path())) {
          nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
          if (!j.is_discarded()) {
            // Every string that names a staged path is moved under the mirror.
            std::vector<nlohmann::json*> todo{&j};
            while (!todo.empty()) {
              nlohmann::json* v = todo.back();
              todo.pop_back();
              if (v->is_string()) *v = inside(v->get<std::string>());
              else if (v->is_structured())
                for (auto& child : *v) todo.push_back(&child);
            }
            text = j.dump(1);
          }
        }
        write_all(target, text);
        chmod(target.c_str(), (it->status(ec).permissions() & fs::perms::owner_exec) != fs::perms::none ? 0700 : 0600);
      } else {
        continue;  // links and special files the grader made are not handed over
      }
      if (lchown(target.c_str(), uid_, gid_) != 0) fail("cannot hand over", target);
    }
    if (ec) {
      errno = ec.value();
      fail("cannot copy", w);
    }
  }
}

bool Jail::staged_ancestor(const fs::path& p) const {
  if (p == p.root_path() || p == "/tmp" || p == "/var/tmp" || p == "/dev/shm") return false;
  for (const fs::path& s : staged_)
    if (within(s, p)) return true;
  return false;
}

std::string Jail::inside(const std::string& path) const {
  if (path.empty() || path[0] != '/') return path;
  const fs::path p = fs::path(path).lexically_normal();
  for (const fs::path& s : staged_)
    if (within(p, s)) return (root_ / p.relative_path()).string();
  return path;
}

SandboxPolicy Jail::translated(const SandboxPolicy& policy) const {
  SandboxPolicy t = policy;
  for (std::string& a : t.command) {
    const std::string moved = inside(a);
    if (moved != a) a = moved;
    else if (!a.empty() && a[0] == '/' && staged_ancestor(fs::path(a).lexically_normal()))
      a = (root_ / fs::path(a).lexically_normal().relative_path()).string();  // e.g. -I <a staged file's folder>
  }
  for (auto& [k, v] : t.env) v = inside(v);
  t.env["TMPDIR"] = tmp_.string();
  if (!t.working_dir.empty()) t.working_dir = inside(t.working_dir.string());
  return t;
}

std::string Jail::copy_back(size_t max_entries) const {
  size_t entries = 0;
  for (const fs::path& w : writable_) {
    const fs::path at = root_ / w.relative_path();
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(at, ec); !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      if (++entries > max_entries) {
        return "gpulab: the run left more than " + std::to_string(max_entries) +
               " files and folders; only the first were kept\n";
      }
      const fs::path target = w / it->path().lexically_relative(at);
      struct stat st {};
      if (lstat(it->path().c_str(), &st) != 0) continue;
      struct stat old {};
      const bool exists = lstat(target.c_str(), &old) == 0;
      if (S_ISDIR(st.st_mode)) {
        if (exists && !S_ISDIR(old.st_mode)) fs::remove(target, ec);
        fs::create_directory(target, ec);
        continue;
      }
      if (exists) fs::remove_all(target, ec);  // never written through: it may be a link
      if (S_ISREG(st.st_mode)) {
        std::string text = read_all(it->path());
        if (is_json_file(target)) text = outside(std::move(text));
        const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                              (st.st_mode & S_IXUSR) ? 0755 : 0644);
        if (fd < 0) fail("cannot copy back", target);
        const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
        close(fd);
        if (!ok) fail("cannot copy back", target);
      } else if (S_ISLNK(st.st_mode)) {
        const std::string to = outside(fs::read_symlink(it->path(), ec).string());
        fs::create_symlink(to, target, ec);
      } else {
        mkfifo(target.c_str(), 0600);  // a FIFO, socket or device: the grader refuses it by its kind
      }
    }
  }
  return "";
}

std::string Jail::outside(std::string text) const {
  replace_all(text, root_.string(), "");
  replace_all(text, tmp_.string(), "/tmp");
  return text;
}

}  // namespace gpulab::sandbox
