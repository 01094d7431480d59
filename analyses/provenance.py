"""Report part: Inputs and provenance: file hashes, manifest, Parquet metadata, settings.

Usage: python -m analyses.provenance RUN_DIR OUT_DIR
"""

from analyses.part import run_part

if __name__ == "__main__":
    run_part("provenance", __doc__)
