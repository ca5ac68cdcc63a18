"""Edge cases of Google's Python client against store-service: one scenario per run, one JSON report on stdout.

Usage: /usr/bin/python3 python_edges.py <service url> <token> <discovery document> <scenario>
Run by test/compat/python-edges.test.ts (which may arm an admin fault before a scenario).
"""
import hashlib
import io
import json
import sys

from bearer_http import BearerHttp
from googleapiclient.discovery import build_from_document
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseDownload, MediaIoBaseUpload

URL, TOKEN, DISCOVERY, SCENARIO = sys.argv[1:5]
SEEN = []


def record(uri, method, headers, resp):
    SEEN.append({"method": method, "range": headers.get("Content-Range") or headers.get("range"), "status": resp.status})


def md5(data):
    return hashlib.md5(data).hexdigest()


def error_of(err):
    return {"status": err.resp.status, "body": err.content.decode("utf-8", "replace")}


def upload(files, data, chunksize, resumable=True, file_id=None):
    """Runs the next_chunk loop; an HttpError on a chunk is recorded and the loop goes on (the client then queries status)."""
    media = MediaIoBaseUpload(io.BytesIO(data), mimetype="application/octet-stream", chunksize=chunksize, resumable=resumable)
    if file_id:
        request = files.update(fileId=file_id, media_body=media, fields="id,size,md5Checksum,version")
    else:
        request = files.create(body={"name": "edge.bin"}, media_body=media, fields="id,size,md5Checksum,version")
    if not resumable:
        return {"file": request.execute(), "errors": []}
    response, errors = None, []
    while response is None and len(errors) < 5:
        try:
            _, response = request.next_chunk()
        except HttpError as err:
            errors.append(error_of(err))
    return {"file": response, "errors": errors}


def main():
    with open(DISCOVERY, encoding="utf-8") as f:
        doc = f.read().replace("ROOT_URL", URL)
    svc = build_from_document(doc, http=BearerHttp(TOKEN, record))
    files = svc.files()
    data = bytes(range(256)) * 4096 + b"tail\r"  # 1 MiB + 5 bytes
    report = {"localMd5": md5(data), "localSize": len(data)}
    if SCENARIO == "fault-mid-upload":
        report.update(upload(files, data, 256 * 1024))
    elif SCENARIO == "chunk-retry":
        # next_chunk(num_retries=1) after a 5xx re-sends the chunk's stream slice, already read to its end.
        media = MediaIoBaseUpload(io.BytesIO(data), mimetype="application/octet-stream", chunksize=512 * 1024, resumable=True)
        request = files.create(body={"name": "chunk-retry.bin"}, media_body=media, fields="id,size,md5Checksum")
        request._sleep = lambda seconds: None
        response, errors = None, []
        while response is None and len(errors) < 3:
            try:
                _, response = request.next_chunk(num_retries=1)
            except Exception as err:  # HttpError, or the connection closed under the empty body
                errors.append(type(err).__name__ + ": " + str(err)[:200])
        report["file"], report["errors"] = response, errors
    elif SCENARIO == "single-request":
        report.update(upload(files, data, -1))
    elif SCENARIO == "resumable-update":
        first = files.create(body={"name": "to-update.bin"}).execute()
        report.update(upload(files, data, 512 * 1024, file_id=first["id"]))
    elif SCENARIO == "empty-multipart":
        report.update(upload(files, b"", 256 * 1024, resumable=False))
        report["localMd5"] = md5(b"")
    elif SCENARIO == "empty-download":
        created = files.create(body={"name": "empty.bin"}, media_body=MediaIoBaseUpload(io.BytesIO(b""), mimetype="text/plain", resumable=False)).execute()
        out = io.BytesIO()
        try:
            downloader = MediaIoBaseDownload(out, files.get_media(fileId=created["id"]), chunksize=1024 * 1024)
            done = False
            while not done:
                _, done = downloader.next_chunk()
            report["downloaded"] = out.getvalue().hex()
        except HttpError as err:
            report["downloadError"] = error_of(err)
    elif SCENARIO == "retries":
        # The client's own retry (execute(num_retries)) after a 403 userRateLimitExceeded; its backoff sleep is
        # recorded instead of slept, so the test waits for nothing. (next_chunk(num_retries) is not used: 1.7.12
        # re-sends a chunk's exhausted stream slice, an empty body under the chunk's Content-Length.)
        slept = []
        request = files.create(body={"name": "retried.txt"}, fields="id,name")
        request._sleep = slept.append
        report["created"] = request.execute(num_retries=2)
        report["sleeps"] = len(slept)
    elif SCENARIO == "watch":
        # argv[5:7]: an HTTPS receiver address and a channel token; the test waits for the messages it receives.
        address, token = sys.argv[5], sys.argv[6]
        created = files.create(body={"name": "watched-by-python.txt"}, fields="id").execute()
        channel = files.watch(fileId=created["id"], body={"id": "python-channel-1", "type": "web_hook", "address": address, "token": token}).execute()
        files.update(fileId=created["id"], body={"name": "renamed-by-python.txt"}).execute()
        report["channel"] = channel
        report["fileId"] = created["id"]
    elif SCENARIO == "stop":
        report["stopped"] = svc.channels().stop(body={"id": sys.argv[5], "resourceId": sys.argv[6]}).execute()
    elif SCENARIO == "empty-resumable":
        report.update(upload(files, b"", 256 * 1024))
        report["localMd5"] = md5(b"")
    report["seen"] = SEEN
    print(json.dumps(report))


if __name__ == "__main__":
    main()
