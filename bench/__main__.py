"""``python -m bench``: run the benchmark suite and print its table."""

import sys

from bench.suite import main

sys.exit(main())
