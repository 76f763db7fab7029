"""bench/bench_http.py reads wrk's report: the units of its percentiles and its error lines."""

from bench.bench_http import _parse_wrk

# wrk 4.1 with --latency, as printed for a row with some 5xx answers and timeouts.
WRK_REPORT = """Running 10s test @ http://127.0.0.1:8000/v1/health
  1 threads and 16 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     9.80ms   12.40ms 133.21ms   91.20%
    Req/Sec     1.65k   210.31     2.01k    74.00%
  Latency Distribution
     50%  750.00us
     75%    9.12ms
     90%   20.41ms
     99%    1.20s
  16449 requests in 10.01s, 3.10MB read
  Socket errors: connect 0, read 0, write 0, timeout 3
  Non-2xx or 3xx responses: 12
Requests/sec:   1643.32
Transfer/sec:    317.05KB
"""


def test_wrk_report_is_read_in_milliseconds_with_its_errors():
    measured = _parse_wrk(WRK_REPORT, server_cpu_seconds=8.2245)
    assert measured.median_ms == 0.75
    assert measured.p99_ms == 1200.0
    assert measured.rate == 1643.32
    assert measured.requests == 16449
    assert measured.bad_responses == 12
    assert measured.errors == "connect 0, read 0, write 0, timeout 3"
    assert round(measured.server_cpu_us) == 500
