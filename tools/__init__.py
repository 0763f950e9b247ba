"""Command-line entry points: mlc-opt, mlc-run, mlc-translate, mlc-tune."""
