// Reading Gradescope's submission_metadata.yml: single and group submissions,
// quoted scalars, the other fields skipped, and clear errors for other files.
#include <catch2/catch.hpp>

#include "batch/gradescope_metadata.hpp"

using gpulab::batch::parse_gradescope_metadata;

TEST_CASE("metadata: submitters of single and group submissions", "[batch][gradescope]") {
  const std::string yml = R"(submission_1001:
  :submitters:
  - :name: Ada Lovelace
    :sid: '1001'
    :email: ada@example.edu
  :created_at: 2026-11-20 10:11:12.000000000 -08:00
  :score: 80.0
  :history:
  - :submission_id: 999
    :submitters:
    - :name: Not A Submitter
submission_1002:
  :submitters:
    - :name: "Grace \"Amazing\" Hopper"
      :sid: '1002'
      :email: grace@example.edu
    - :name: 'Alan O''Turing'
      :sid: "1003"
      :email: alan@example.edu
  :score:
)";
  const auto m = parse_gradescope_metadata(yml, "submission_metadata.yml");
  REQUIRE(m.size() == 2);
  const auto& one = m.at("submission_1001");
  REQUIRE(one.size() == 1);
  CHECK(one[0].name == "Ada Lovelace");
  CHECK(one[0].sid == "1001");
  CHECK(one[0].email == "ada@example.edu");
  const auto& group = m.at("submission_1002");
  REQUIRE(group.size() == 2);
  CHECK(group[0].name == "Grace \"Amazing\" Hopper");
  CHECK(group[1].name == "Alan O'Turing");
  CHECK(group[1].sid == "1003");
  CHECK(group[1].email == "alan@example.edu");
}

TEST_CASE("metadata: a file that is not Gradescope's metadata is an error naming it", "[batch][gradescope]") {
  CHECK_THROWS_WITH(parse_gradescope_metadata("just some text\n", "x.yml"),
                    Catch::Contains("x.yml:1") && Catch::Contains("submission_metadata.yml"));
  CHECK_THROWS_WITH(parse_gradescope_metadata("# only a comment\n", "x.yml"), Catch::Contains("no submissions"));
}

TEST_CASE("metadata: each submission's created_at, not the history's", "[batch][gradescope][late]") {
  const std::string yml = R"(submission_1001:
  :submitters:
  - :name: Ada Lovelace
    :email: ada@example.edu
  :created_at: 2026-11-20 10:11:12.000000000 -08:00
  :history:
  - :submission_id: 999
    :created_at: 2026-11-19 09:00:00.000000000 -08:00
submission_1002:
  :submitters:
  - :name: Grace Hopper
)";
  const auto m = gpulab::batch::parse_gradescope_submissions(yml, "submission_metadata.yml");
  REQUIRE(m.size() == 2);
  CHECK(m.at("submission_1001").created_at == "2026-11-20 10:11:12.000000000 -08:00");
  CHECK(m.at("submission_1001").submitters.size() == 1);
  CHECK(m.at("submission_1002").created_at.empty());
}
