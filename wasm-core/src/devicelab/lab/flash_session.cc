#include "devicelab/lab/flash_session.h"

#include <algorithm>
#include <utility>

#include "base/json_reader.h"
#include "base/json_writer.h"
#include "base/params.h"
#include "device/ftl_block.h"
#include "device/ftl_page.h"
#include "device/host_driver.h"
#include "device/profiles.h"

namespace fawnlab::devices {
namespace {

constexpr size_t kRecentMax = 256;
constexpr size_t kWindow = 200;
constexpr int kGcLow = 2;

std::vector<std::string> FlashNames() {
  std::vector<std::string> out;
  for (const auto& p : device::FlashProfiles()) out.push_back(p.name);
  return out;
}

}  // namespace

FlashSession::Config FlashSession::FromParams(const ParamValues& pv) {
  Config c;
  c.profile = pv.Choice("profile");
  c.blocks = static_cast<int>(pv.Int("blocks"));
  c.pages_per_block = static_cast<int>(pv.Int("pages_per_block"));
  c.overprovision = pv.Real("overprovision");
  c.workload = pv.Choice("workload");
  c.streams = static_cast<int>(pv.Int("streams"));
  c.queue_depth = static_cast<int>(pv.Int("queue_depth"));
  c.prefill = pv.Bool("prefill");
  return c;
}

std::vector<ParamSpec> FlashSession::Schema(const Config& c) {
  return {
      ParamSpec::Choice("profile", c.profile, FlashNames(),
                        "the flash device: its chips, FTL and timings (docs/devices.md)")
          .WithLabels(device::ProfileLabels(FlashNames())),
      ParamSpec::Int("blocks", c.blocks, 8, 128, "blocks", "erase blocks shown (the device is shrunk to this many)"),
      ParamSpec::Int("pages_per_block", c.pages_per_block, 4, 64, "pages", "pages per erase block in the view"),
      ParamSpec::Real("overprovision", c.overprovision, 0.05, 0.5, "",
                      "spare pages / logical pages (page-mapped FTL), beyond the 4 blocks per chip kept for the "
                      "open blocks and the collector's reserve"),
      ParamSpec::Choice("workload", c.workload, {"sequential", "random", "semi-random"},
                        "host write pattern: in order, random pages, or semi-random (interleaved append streams)"),
      ParamSpec::Int("streams", c.streams, 1, 64, "streams", "append streams written at once (semi-random)"),
      ParamSpec::Int("queue_depth", c.queue_depth, 1, 32, "writes", "host writes outstanding"),
      ParamSpec::Bool("prefill", c.prefill, "start with every logical page written once (a used device)"),
  };
}

StatusOr<std::unique_ptr<LabSession>> FlashSession::New(const ParamValues& config, uint64_t seed) {
  std::unique_ptr<FlashSession> session(new FlashSession(FromParams(config), seed));
  if (Status s = session->Build(); !s.ok()) return s;
  return std::unique_ptr<LabSession>(std::move(session));
}

StatusOr<std::unique_ptr<FlashSession>> FlashSession::Create(const std::string& config_json, uint64_t seed) {
  return CreateSessionAs<FlashSession>("devices.flash", config_json, seed);
}

FlashSession::FlashSession(Config c, uint64_t seed) : config_(std::move(c)), rng_(sim::Rng::ForStream(seed, 7)) {}

FlashSession::~FlashSession() {
  if (dev_) dev_->nand().set_observer(nullptr);
}

Status FlashSession::Build() {
  const device::FlashProfile& p = *device::FindFlashProfile(config_.profile);
  device::NandGeometry g;
  g.channels = 1;
  g.chips = p.ftl == device::FtlKind::kPageMapped ? 2 : 1;
  g.blocks = static_cast<uint32_t>(config_.blocks);
  g.pages_per_block = static_cast<uint32_t>(config_.pages_per_block);
  g.page_bytes = p.page_bytes;
  if (g.blocks % static_cast<uint32_t>(g.chips) != 0) ++g.blocks;
  auto nand = std::make_unique<device::Nand>(g, p.timing);
  std::unique_ptr<device::Ftl> ftl;
  if (p.ftl == device::FtlKind::kPageMapped) {
    uint64_t usable = (uint64_t{g.blocks} - static_cast<uint64_t>(g.chips) * (kGcLow + 2)) * g.pages_per_block;
    logical_pages_ = static_cast<uint64_t>(static_cast<double>(usable) / (1.0 + config_.overprovision));
    auto f = device::PageMappedFtl::Create(nand.get(), logical_pages_, kGcLow);
    if (!f.ok()) return f.status();
    ftl = std::move(f).value();
  } else {
    int batch = std::max(1, std::min(p.erase_batch, config_.blocks / 8));
    uint64_t logical_blocks = g.blocks - static_cast<uint64_t>(p.update_blocks + batch + 2);
    logical_pages_ = logical_blocks * g.pages_per_block;
    auto f = device::BlockMappedFtl::Create(nand.get(), logical_pages_, p.update_blocks, batch);
    if (!f.ok()) return f.status();
    ftl = std::move(f).value();
  }
  device::FlashControllerConfig ctrl = p.controller;
  ctrl.write_buffer_pages = std::min<uint32_t>(ctrl.write_buffer_pages, 4);
  device::DeviceInfo info{p.name, "flash", logical_pages_ * g.page_bytes, g.page_bytes};
  dev_ = std::make_unique<device::FlashDevice>(&sim_, info, std::move(nand), std::move(ftl), ctrl);
  if (config_.prefill) {
    const uint32_t pb = g.page_bytes;
    dev_->FillSequential([pb](uint64_t lpn) { return device::PatternWord(0, lpn * pb / 4096); });
  }
  dev_->nand().set_observer(this);
  buf_.assign(g.page_bytes, 0);
  stream_next_.assign(static_cast<size_t>(config_.streams), 0);
  for (int i = 0; i < config_.queue_depth; ++i) Issue();
  return Status::Ok();
}

uint64_t FlashSession::NextPage() {
  if (config_.workload == "sequential") {
    uint64_t p = seq_next_;
    seq_next_ = (seq_next_ + 1) % logical_pages_;
    return p;
  }
  if (config_.workload == "random") return rng_.UniformU64(logical_pages_);
  const uint64_t k = static_cast<uint64_t>(config_.streams);
  const uint64_t region = std::max<uint64_t>(1, logical_pages_ / k);
  size_t s = static_cast<size_t>(rng_.UniformU64(k));
  uint64_t p = std::min(s * region + stream_next_[s], logical_pages_ - 1);
  stream_next_[s] = (stream_next_[s] + 1) % region;
  return p;
}

void FlashSession::Issue() {
  uint64_t lpn = NextPage();
  ++writes_issued_;
  const uint32_t pb = dev_->page_bytes();
  device::FillPattern(buf_.data(), lpn * pb, pb, writes_issued_);
  ++outstanding_;
  Status s = dev_->Submit(device::IoCommand::Single(device::IoEntry::Write(lpn * pb, pb, buf_.data())),
                          [this](const device::IoCompletion& c) {
                            --outstanding_;
                            recent_done_.emplace_back(c.completed, c.latency());
                            if (recent_done_.size() > kWindow) recent_done_.pop_front();
                            while (outstanding_ < config_.queue_depth) Issue();
                          });
  assert(s.ok());
  (void)s;
}

Status FlashSession::Reconfigured(const ParamValues& config, const ParamValues&) {
  const Config next = FromParams(config);
  bool streams_changed = next.streams != config_.streams;
  config_ = next;
  if (streams_changed) stream_next_.assign(static_cast<size_t>(config_.streams), 0);
  while (outstanding_ < config_.queue_depth) Issue();
  recent_done_.clear();
  return Status::Ok();
}

void FlashSession::OnProgram(uint64_t ppn, bool by_collector) {
  if (by_collector || recent_writes_.size() >= kRecentMax) return;
  const uint32_t ppb = dev_->nand().geometry().pages_per_block;
  recent_writes_.emplace_back(static_cast<uint32_t>(ppn / ppb), static_cast<uint32_t>(ppn % ppb));
}

void FlashSession::OnCopy(uint64_t from, uint64_t to) {
  if (recent_moves_.size() >= kRecentMax) return;
  const uint32_t ppb = dev_->nand().geometry().pages_per_block;
  recent_moves_.push_back({static_cast<uint32_t>(from / ppb), static_cast<uint32_t>(from % ppb),
                           static_cast<uint32_t>(to / ppb), static_cast<uint32_t>(to % ppb)});
}

void FlashSession::OnErase(uint32_t block) {
  if (recent_erased_.size() < kRecentMax) recent_erased_.push_back(block);
}

std::string FlashSession::SnapshotJson() {
  const device::Nand& nand = dev_->nand();
  const device::NandGeometry& g = nand.geometry();
  const sim::SimTime now = sim_.now();
  JsonWriter w;
  w.BeginObject();
  w.Key("time_ns");
  w.Number(static_cast<double>(now));
  w.Key("profile");
  w.String(config_.profile);
  w.Key("ftl");
  w.String(device::FindFlashProfile(config_.profile)->ftl == device::FtlKind::kPageMapped ? "page-mapped" : "block-mapped");
  w.Key("workload");
  w.String(config_.workload);
  w.Key("chips");
  w.Int(g.chips);
  w.Key("pages_per_block");
  w.Int(g.pages_per_block);
  w.Key("page_bytes");
  w.Int(g.page_bytes);
  w.Key("logical_pages");
  w.Number(static_cast<double>(logical_pages_));
  w.Key("overprovision");  // the configured spare over logical pages (the page-mapped FTL's); null: block-mapped
  if (device::FindFlashProfile(config_.profile)->ftl == device::FtlKind::kPageMapped) {
    w.Number(config_.overprovision);
  } else {
    w.Null();
  }
  w.Key("blocks");
  w.BeginArray();
  std::string pages(g.pages_per_block, '.');
  for (uint32_t b = 0; b < g.blocks; ++b) {
    for (uint32_t p = 0; p < g.pages_per_block; ++p) {
      device::PageState st = nand.state(nand.Ppn(b, p));
      pages[p] = st == device::PageState::kValid ? 'v' : st == device::PageState::kInvalid ? 'x' : '.';
    }
    w.BeginObject();
    w.Key("id");
    w.Int(b);
    w.Key("chip");
    w.Int(nand.ChipOf(b));
    w.Key("role");
    w.String(dev_->ftl().RoleOf(b));
    w.Key("erases");
    w.Int(nand.erase_count(b));
    w.Key("valid");
    w.Int(nand.valid_pages(b));
    w.Key("pages");
    w.String(pages);
    w.EndObject();
  }
  w.EndArray();
  bool gc_active = false;
  for (int c = 0; c < g.chips; ++c) gc_active = gc_active || nand.chip_background_until(c) > now;
  w.Key("gc");
  w.BeginObject();
  w.Key("active");
  w.Bool(gc_active);
  w.Key("victim");
  w.Number(static_cast<double>(dev_->ftl().stats().last_victim));
  w.EndObject();
  w.Key("recent");
  w.BeginObject();
  w.Key("writes");
  w.BeginArray(true);
  for (const auto& [b, p] : recent_writes_) {
    w.BeginArray(true);
    w.Int(b);
    w.Int(p);
    w.EndArray();
  }
  w.EndArray();
  w.Key("moves");
  w.BeginArray(true);
  for (const auto& m : recent_moves_) {
    w.BeginArray(true);
    for (uint32_t x : m) w.Int(x);
    w.EndArray();
  }
  w.EndArray();
  w.Key("erased");
  w.BeginArray(true);
  for (uint32_t b : recent_erased_) w.Int(b);
  w.EndArray();
  w.EndObject();
  recent_writes_.clear();
  recent_moves_.clear();
  recent_erased_.clear();

  const device::DeviceCounters& c = dev_->counters();
  double mb_s = 0, mean_us = 0;
  if (recent_done_.size() >= 2) {
    double secs = sim::NsToSec(recent_done_.back().first - recent_done_.front().first);
    if (secs > 0) mb_s = static_cast<double>((recent_done_.size() - 1) * g.page_bytes) / 1048576.0 / secs;
  }
  for (const auto& d : recent_done_) mean_us += sim::NsToUs(d.second);
  if (!recent_done_.empty()) mean_us /= static_cast<double>(recent_done_.size());
  w.Key("counters");
  w.BeginObject();
  w.Key("host_writes");
  w.Number(static_cast<double>(c.writes));
  w.Key("host_bytes");
  w.Number(static_cast<double>(c.host_write_bytes));
  w.Key("media_bytes");
  w.Number(static_cast<double>(c.media_write_bytes));
  w.Key("write_amplification");
  w.Number(c.write_amplification());
  w.Key("erases");
  w.Number(static_cast<double>(c.erases));
  w.Key("gc_moves");
  w.Number(static_cast<double>(c.gc_moves));
  w.Key("gc_stalls");
  w.Number(static_cast<double>(c.gc_stalls));
  w.Key("gc_stall_ms");
  w.Number(static_cast<double>(c.gc_stall_ns) / 1e6);
  w.Key("queue_depth");
  w.Int(c.queue_depth);
  w.Key("host_mb_s");
  w.Number(mb_s);
  w.Key("mean_write_us");
  w.Number(mean_us);
  w.Key("joules");
  w.Number(dev_->Joules());
  w.EndObject();
  w.EndObject();
  return w.str();
}

}  // namespace fawnlab::devices
