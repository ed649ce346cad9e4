"""The held-out protocol: development cases are named, the held-out sample never contains one."""
from copy_as_decode.cases import heldout
from copy_as_decode.cases.corpora import load, spread


def test_development_cases_are_the_ones_looked_at():
    for corpus in ("humanevalfix-python", "humanevalfix-js"):
        dev = heldout.development_ids(corpus)
        assert {c.id for c in spread(load(corpus), 12)} <= dev  # the training method's 12-case spread
    assert "Python/3" in heldout.development_ids("humanevalfix-python")  # a remote test's case


def test_the_heldout_sample_is_fixed_spread_and_disjoint():
    for corpus in ("humanevalfix-python", "humanevalfix-js"):
        dev, held = heldout.split(corpus)
        sample = heldout.heldout_sample(corpus)
        assert len(sample) == 48 and len({c.id for c in sample}) == 48
        assert not {c.id for c in sample} & {c.id for c in dev}
        assert sample == heldout.heldout_sample(corpus) and sample[0] == held[0] and sample[-1] == held[-1]
        assert len(dev) + len(held) == 164


def test_bench_edit_runs_the_heldout_sample_and_never_a_development_case():
    from argparse import Namespace

    import pytest

    from copy_as_decode.bench.edit_bench import corpora_of
    for corpus in ("humanevalfix-python", "humanevalfix-js"):
        [(name, cases)] = corpora_of(Namespace(corpora=[corpus], corpus=[], cases="heldout"))
        assert spread(cases, heldout.SAMPLE) == heldout.heldout_sample(corpus)
        [(_, dev)] = corpora_of(Namespace(corpora=[corpus], corpus=[], cases="development"))
        assert {c.id for c in dev} == heldout.development_ids(corpus)
    with pytest.raises(ValueError, match="no development/held-out split"):
        corpora_of(Namespace(corpora=["long-python"], corpus=[], cases="heldout"))
