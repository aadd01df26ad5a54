#include "srcmap/trace_import.h"

#include <gtest/gtest.h>

namespace fawnlab::srcmap {
namespace {

TEST(SrcmapImport, ParsesMsrLines) {
  const char* text =
      "128166372003061629,wdev,0,Write,3019898880,4096,2123\n"
      "128166372002969908,wdev,0,Read,1000,512,1000\r\n"
      "\n"
      "128166372016382155,hm,1,write,7000,8192,40\n";
  auto t = ImportMsrCsv(text);
  ASSERT_TRUE(t.ok()) << t.status().message();
  const ImportedTrace& x = t.value();
  ASSERT_EQ(x.requests.size(), 3u);
  ASSERT_EQ(x.volume_names.size(), 2u);
  EXPECT_EQ(x.volume_names[0], "wdev:0");
  EXPECT_EQ(x.volume_names[1], "hm:1");
  // Sorted by time, from the first: the read came first.
  EXPECT_EQ(x.requests[0].t_ns, 0);
  EXPECT_FALSE(x.requests[0].write);
  EXPECT_EQ(x.requests[1].t_ns, (128166372003061629 - 128166372002969908) * 100);
  EXPECT_TRUE(x.requests[2].write);
  EXPECT_EQ(x.requests[2].volume, 1u);
  EXPECT_EQ(x.volume_bytes[0] % 65536, 0u);
  EXPECT_GE(x.volume_bytes[0], 3019898880u + 4096u);
}

TEST(SrcmapImport, HeaderIsSkipped) {
  auto t = ImportMsrCsv("Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime\n1,h,0,Read,0,4096,1\n");
  ASSERT_TRUE(t.ok()) << t.status().message();
  EXPECT_EQ(t.value().requests.size(), 1u);
}

void ExpectError(const std::string& text, const std::string& needle) {
  auto t = ImportMsrCsv(text);
  ASSERT_FALSE(t.ok()) << text;
  EXPECT_NE(t.status().message().find(needle), std::string::npos) << t.status().message();
}

TEST(SrcmapImport, MalformedLinesNameTheirLine) {
  const std::string ok = "1,h,0,Read,0,4096,1\n";
  ExpectError(ok + "2,h,0,Read,0,4096\n", "trace line 2: expected 7");
  ExpectError(ok + ok + "x3,h,0,Read,0,4096,1\n", "trace line 3: Timestamp 'x3'");
  ExpectError(ok + "2,h,0,Trim,0,4096,1\n", "trace line 2: Type 'Trim' is neither Read nor Write");
  ExpectError(ok + "2,h,zero,Read,0,4096,1\n", "trace line 2: DiskNumber 'zero'");
  ExpectError(ok + "2,h,0,Read,-5,4096,1\n", "trace line 2: Offset '-5'");
  ExpectError(ok + "2,h,0,Read,0,0,1\n", "trace line 2: Size is 0");
  ExpectError(ok + "2,h,0,Read,0,4k,1\n", "trace line 2: Size '4k'");
  ExpectError(ok + "2,,0,Read,0,4096,1\n", "trace line 2: Hostname is empty");
  ExpectError(ok + "\n\n2,h,0,Read,0,4096,1.5\n", "trace line 4: ResponseTime '1.5'");
  ExpectError("Timestamp,h\n", "no requests");
  ExpectError("", "no requests");
  std::string nine;
  for (int i = 0; i < 9; ++i) nine += std::to_string(i + 1) + ",h," + std::to_string(i) + ",Read,0,4096,1\n";
  ExpectError(nine, "trace line 9: volume 'h:8'");
}

}  // namespace
}  // namespace fawnlab::srcmap
