// TempDir: a fresh directory under $TMPDIR (or /tmp) for a native benchmark's real files,
// removed with everything in it when the object goes; path() is "" if it could not be made.
#ifndef FAWNLAB_BENCH_TEMP_DIR_H_
#define FAWNLAB_BENCH_TEMP_DIR_H_

#include <cstdlib>
#include <filesystem>
#include <string>

namespace fawnlab::bench {

class TempDir {
 public:
  explicit TempDir(const char* prefix = "fawnlab-kv") {
    const char* t = std::getenv("TMPDIR");
    std::string tmpl = std::string(t && *t ? t : "/tmp") + "/" + prefix + "-XXXXXX";
    if (::mkdtemp(tmpl.data()) != nullptr) path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace fawnlab::bench

#endif  // FAWNLAB_BENCH_TEMP_DIR_H_
