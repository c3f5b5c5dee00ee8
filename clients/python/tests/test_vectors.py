"""The vectors of docs/vectors and test/data/topksketch_v1.tsv, without a server
(check_vectors.py; also run by `make -C test/unit vectors`)."""

import check_vectors


def test_vectors():
    checks = check_vectors.run(check_vectors.os.path.join(check_vectors.ROOT, "docs", "vectors"))
    assert checks.failures == []
    assert checks.counts["values"] >= 80 and checks.counts["filters"] >= 14
    assert checks.counts["XXH3 hashes against libxxhash"] == 612
