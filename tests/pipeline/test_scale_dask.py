"""The Dask engine: a real LocalCluster of worker processes writes the same tables as the local pool."""

import json

import pytest

from rulelab.pipeline.run import ingest, score
from test_scale import write_collection

distributed = pytest.importorskip("distributed")

pytestmark = [pytest.mark.slow, pytest.mark.pool]


@pytest.fixture(scope="module")
def cluster():
    """Two single-threaded worker processes, listening on loopback only."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address="127.0.0.1:0") as running:
        yield running


@pytest.fixture(scope="module")
def collection(tmp_path_factory):
    return write_collection(tmp_path_factory.mktemp("collection"), 100)


def test_dask_and_local_runs_write_identical_tables(cluster, collection, tmp_path):
    local = score([collection], tmp_path / "local", jobs=2)
    on_dask = score([collection], tmp_path / "dask", engine="dask", scheduler=cluster.scheduler_address)

    assert on_dask["engine"] == {"engine": "dask", "scheduler": cluster.scheduler_address, "workers": 2}
    assert on_dask["counts"] == local["counts"] and on_dask["counts"]["scores_rows"] > 0
    for table in ("games.parquet", "scores.parquet"):
        assert (tmp_path / "dask" / table).read_bytes() == (tmp_path / "local" / table).read_bytes()


def test_dask_run_resumes_from_parts_the_local_pool_made(cluster, collection, tmp_path):
    ingest([collection], tmp_path / "run", jobs=2)
    parts = sorted((tmp_path / "run" / "parts" / "games").iterdir())
    parts[len(parts) // 2].unlink()
    (tmp_path / "run" / "games.parquet").rename(tmp_path / "local.parquet")
    (tmp_path / "run" / "manifest.json").unlink()

    manifest = ingest([collection], tmp_path / "run", engine="dask", scheduler=cluster.scheduler_address)

    assert manifest["units"]["computed"] == 1
    assert (tmp_path / "run" / "games.parquet").read_bytes() == (tmp_path / "local.parquet").read_bytes()
    recorded = json.loads((tmp_path / "run" / "manifest.json").read_text())
    assert recorded["engine"]["engine"] == "dask" and recorded["counts"] == manifest["counts"]


def test_without_a_scheduler_dask_starts_its_own_local_cluster(collection, tmp_path):
    manifest = ingest([collection], tmp_path / "run", engine="dask", jobs=2)
    assert manifest["engine"] == {"engine": "dask", "scheduler": "local cluster", "workers": 2}
    assert manifest["counts"]["games_found"] == 100 + 5
