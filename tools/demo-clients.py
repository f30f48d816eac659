#!/usr/bin/env python3
"""Real third-party clients against the real demo-backend program.

Starts the program (the path given as the first argument) on a free loopback port, then drives it
with opensearch-py, the official Elasticsearch 8 client, awxkit as a library and the `awx` command
line, and stops it. Every walk is bounded; the whole run has a deadline. Exit status 0 only when
every check passed; each failure names the client and what it saw.
"""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time

DEADLINE = time.monotonic() + 240
SORT_DESC = [{"@timestamp": "desc"}, {"_shard_doc": "desc"}]


def fail(client, message):
    print(f"demo-clients: {client}: {message}", file=sys.stderr)
    sys.exit(1)


def check(client, condition, message):
    if not condition:
        fail(client, message)


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(binary, workdir):
    port = free_port()
    pidfile = os.path.join(workdir, "demo.pid")
    child = subprocess.Popen(
        [binary, "--addr", f"127.0.0.1:{port}", "--apps", "200", "--pidfile", pidfile],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    started = time.monotonic()
    while not os.path.exists(pidfile):
        if child.poll() is not None:
            fail("demo-backend", f"exited early with status {child.returncode}")
        if time.monotonic() - started > 20:
            child.kill()
            fail("demo-backend", "no pidfile after 20s")
        time.sleep(0.05)
    return child, port


def walk_search_after(search, name, pages=100):
    """Walks the index newest first with search_after (at most `pages` pages); checks no repeats."""
    seen = set()
    after = None
    for _ in range(pages):
        check(name, time.monotonic() < DEADLINE, "the walk ran past the deadline")
        body = {"size": 1000, "sort": SORT_DESC, "track_total_hits": False}
        if after is not None:
            body["search_after"] = after
        hits = search(body)["hits"]["hits"]
        if not hits:
            return seen
        for hit in hits:
            check(name, hit["_id"] not in seen, f"hit {hit['_id']} came twice")
            seen.add(hit["_id"])
        after = hits[-1]["sort"]
    if pages == 100:
        fail(name, "the walk did not end within 100 pages")
    return seen


def opensearch(port):
    from opensearchpy import OpenSearch

    name = "opensearch-py"
    client = OpenSearch(hosts=[{"host": "127.0.0.1", "port": port}], timeout=30)
    check(name, client.ping(), "ping (HEAD /) failed")
    check(name, client.info()["version"]["number"].startswith("8."), "GET / has no version")
    by_url = client.search(
        index="logs-app",
        params={"sort": "@timestamp:desc,_shard_doc:desc", "track_total_hits": "true", "size": 5},
    )
    total = by_url["hits"]["total"]
    check(name, total["relation"] == "eq" and total["value"] >= 20_000, f"total {total}")
    check(name, len(by_url["hits"]["hits"]) == 5, "size=5 as a URL parameter")
    walked = walk_search_after(lambda body: client.search(index="logs-app", body=body), name)
    check(name, len(walked) >= 20_000, f"walked only {len(walked)} hits")
    query = {"query": {"query_string": {"query": "log.level:error"}}}
    counted = client.count(index="logs-app", body=query)["count"]
    searched = client.search(
        index="logs-app", body={**query, "size": 0, "track_total_hits": True}
    )["hits"]["total"]["value"]
    check(name, counted > 0, "_count found no errors")
    check(name, abs(counted - searched) <= 10, f"_count {counted} vs search total {searched}")
    print(f"demo-clients: {name}: walked {len(walked)} hits, {counted} errors counted")


def elasticsearch(port):
    from elasticsearch import Elasticsearch

    name = "elasticsearch"
    client = Elasticsearch(f"http://127.0.0.1:{port}", request_timeout=30)
    check(name, client.info()["version"]["number"].startswith("8."), "GET / has no version")
    capped = client.search(index="logs-app", size=0, track_total_hits=100)["hits"]["total"]
    check(name, capped == {"value": 100, "relation": "gte"}, f"integer track_total_hits: {capped}")
    walked = walk_search_after(
        lambda body: client.search(index="logs-app", **body), name, pages=3
    )
    check(name, len(walked) == 3_000, f"walked {len(walked)} hits in 3 pages")
    found = client.search(
        index="logs-app",
        size=3,
        sort=SORT_DESC,
        query={"query_string": {"query": "log.level:error"}},
    )["hits"]["hits"]
    check(name, all(hit["_source"]["log"]["level"] == "ERROR" for hit in found), "query_string")
    counted = client.count(index="logs-app", query={"match_all": {}})["count"]
    check(name, counted >= 20_000, f"_count {counted}")
    print(f"demo-clients: {name}: walked {len(walked)} hits, _count {counted}")


def awxkit_library(port):
    from awxkit import api, config

    name = "awxkit"
    config.base_url = f"http://127.0.0.1:{port}"
    config.credentials = {"default": {"username": "", "password": ""}}
    v2 = api.Api().get().available_versions.v2.get()
    jobs = {job.id: job for job in v2.jobs.get().results}
    check(name, sorted(jobs) == [1, 2], f"jobs {sorted(jobs)}")
    events = jobs[1].related.job_events
    counters = []
    last = 0
    for _ in range(100):
        check(name, time.monotonic() < DEADLINE, "the walk ran past the deadline")
        page = events.get(order_by="counter", counter__gt=last, page_size=200)
        if not page.results:
            break
        counters.extend(event.counter for event in page.results)
        last = counters[-1]
    check(name, counters == list(range(1, 8_001)), f"{len(counters)} events, gaps or repeats")
    print(f"demo-clients: {name}: walked {len(counters)} events by counter")


def awx_cli(port):
    name = "awx"
    awx = os.path.join(os.path.dirname(sys.executable), "awx")
    base = ["--conf.host", f"http://127.0.0.1:{port}", "-f", "json"]
    listed = subprocess.run(
        [awx, *base, "jobs", "list"], capture_output=True, text=True, timeout=60
    )
    check(name, listed.returncode == 0, f"jobs list: {listed.stderr.strip()}")
    check(name, json.loads(listed.stdout)["count"] == 2, f"jobs list: {listed.stdout}")
    got = subprocess.run(
        [awx, *base, "jobs", "get", "2"], capture_output=True, text=True, timeout=60
    )
    check(name, got.returncode == 0, f"jobs get 2: {got.stderr.strip()}")
    check(name, json.loads(got.stdout)["status"] == "running", f"jobs get 2: {got.stdout}")
    print(f"demo-clients: {name}: jobs list and jobs get work")


def main():
    if len(sys.argv) != 2:
        fail("usage", "demo-clients.py PATH-TO-demo-backend")
    with tempfile.TemporaryDirectory() as workdir:
        child, port = start(sys.argv[1], workdir)
        try:
            opensearch(port)
            elasticsearch(port)
            awxkit_library(port)
            awx_cli(port)
        finally:
            child.send_signal(signal.SIGTERM)
            try:
                child.wait(timeout=10)
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()


if __name__ == "__main__":
    main()
