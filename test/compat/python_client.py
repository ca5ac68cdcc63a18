"""Drives store-service with Google's Python client (Debian's python3-googleapi) and prints one JSON report.

Usage: /usr/bin/python3 python_client.py <service url> <token> <discovery document>
Run by test/compat/python-client.test.ts, which checks the report against what the service stored.
Every call goes through the real client: the service is built from a discovery document rewritten to /store/v3.
"""
import hashlib
import io
import json
import os
import sys

from bearer_http import BearerHttp
from googleapiclient.discovery import build_from_document
from googleapiclient.errors import HttpError
from googleapiclient.http import MediaIoBaseDownload, MediaIoBaseUpload

URL, TOKEN, DISCOVERY = sys.argv[1], sys.argv[2], sys.argv[3]
SEEN = []  # (method, path without query, status) of every HTTP exchange the client made


def record(uri, method, headers, resp):
    path = uri.split("?", 1)[0][len(URL):]
    query = uri.split("?", 1)[1] if "?" in uri else ""
    upload_type = next((p.split("=", 1)[1] for p in query.split("&") if p.startswith("uploadType=")), None)
    # httplib2 decompresses gzip and keeps the original Content-Encoding as "-content-encoding".
    SEEN.append({"method": method, "path": path, "uploadType": upload_type, "status": resp.status, "encoding": resp.get("-content-encoding")})


def md5(data):
    return hashlib.md5(data).hexdigest()


def error_of(err):
    body = json.loads(err.content.decode("utf-8"))
    return {"status": err.resp.status, "reason": body["error"]["errors"][0]["reason"], "message": body["error"]["message"]}


def download(request):
    out = io.BytesIO()
    downloader = MediaIoBaseDownload(out, request, chunksize=1024 * 1024)
    done = False
    while not done:
        _, done = downloader.next_chunk()
    return out.getvalue()


def main():
    with open(DISCOVERY, encoding="utf-8") as f:
        doc = f.read().replace("ROOT_URL", URL)
    svc = build_from_document(doc, http=BearerHttp(TOKEN, record))
    files = svc.files()
    report = {}

    report["about"] = svc.about().get(fields="kind,user").execute()
    report["startPageToken"] = svc.changes().getStartPageToken().execute()

    # Multipart creates (the client frames multipart/related with bare LF) of content ending in CR and in CRLF.
    report["multipart"] = []
    for name, data in (("ends-cr.txt", b"first line\r\nsecond line\r"), ("ends-crlf.txt", b"a\r\nb\r\n"), ("ends-dashes.bin", b"\n--x--\r\n--")):
        media = MediaIoBaseUpload(io.BytesIO(data), mimetype="text/plain", resumable=False)
        created = files.create(body={"name": name, "mimeType": "text/plain"}, media_body=media).execute()
        report["multipart"].append({"file": created, "localMd5": md5(data), "localSize": len(data), "hex": data.hex()})

    # A resumable chunked upload of a few MiB (chunks of 1 MiB, a multiple of 256 KiB) with the next_chunk loop.
    big = os.urandom(3 * 1024 * 1024 + 12345)
    media = MediaIoBaseUpload(io.BytesIO(big), mimetype="application/octet-stream", chunksize=1024 * 1024, resumable=True)
    request = files.create(body={"name": "big.bin"}, media_body=media, fields="id,name,size,md5Checksum")
    progress, response = [], None
    while response is None:
        status, response = request.next_chunk()
        if status:
            progress.append(status.resumable_progress)
    report["resumable"] = {"file": response, "progress": progress, "localMd5": md5(big), "localSize": len(big)}

    # get_media (MediaIoBaseDownload with Range requests of 1 MiB) of the big file.
    got = download(files.get_media(fileId=response["id"]))
    report["download"] = {"size": len(got), "md5": md5(got)}

    # A simple media update (no metadata: uploadType=media) of the first multipart file.
    new_data = b"replaced by a simple media update\r"
    first_id = report["multipart"][0]["file"]["id"]
    updated = files.update(fileId=first_id, media_body=MediaIoBaseUpload(io.BytesIO(new_data), mimetype="text/plain", resumable=False)).execute()
    report["simpleUpdate"] = {"file": updated, "localMd5": md5(new_data), "hex": new_data.hex()}

    # fields on get and list, list with q.
    report["getFields"] = files.get(fileId=first_id, fields="id,name,md5Checksum").execute()
    report["listFields"] = files.list(q="name = 'ends-crlf.txt' and trashed = false", fields="files(id,name)", pageSize=10).execute()

    # Paging with list_next (pageToken from nextPageToken) until it returns None.
    pages, page_req = [], files.list(pageSize=2, fields="nextPageToken,files(id)", q="trashed = false")
    while page_req is not None:
        page = page_req.execute()
        pages.append(len(page.get("files", [])))
        page_req = files.list_next(page_req, page)
    report["pages"] = pages

    # Pre-generated IDs: create with one, then the same create again (a retry) is a 409.
    ids = files.generateIds(count=2, space="drive", type="files").execute()
    report["generateIds"] = ids
    report["createWithId"] = files.create(body={"id": ids["ids"][0], "name": "pre-generated.txt"}, fields="id,name").execute()
    try:
        files.create(body={"id": ids["ids"][0], "name": "pre-generated.txt"}).execute()
        report["createWithIdAgain"] = "no error"
    except HttpError as err:
        report["createWithIdAgain"] = error_of(err)

    # A batch of permission creates with callbacks (POST /batch/store/v3), one of them for an unknown file.
    answers = {}

    def callback(request_id, response, exception):
        answers[request_id] = error_of(exception) if exception else response

    batch = svc.new_batch_http_request(callback=callback)
    target = report["resumable"]["file"]["id"]
    batch.add(svc.permissions().create(fileId=target, body={"type": "user", "role": "reader", "emailAddress": "bob@example.com"}, fields="id", sendNotificationEmail=False), request_id="bob")
    batch.add(svc.permissions().create(fileId=target, body={"type": "domain", "role": "writer", "domain": "example.com"}, fields="id"), request_id="domain")
    batch.add(svc.permissions().create(fileId="no-such-file", body={"type": "user", "role": "reader", "emailAddress": "bob@example.com"}, fields="id"), request_id="missing")
    batch.execute()
    report["batch"] = answers

    # Conversion on create (CSV -> native spreadsheet), then export_media back to CSV.
    csv = b"name,count\r\napples,3\r\npears,5\r\n"
    sheet = files.create(body={"name": "sheet", "mimeType": "application/vnd.svc-apps.spreadsheet"}, media_body=MediaIoBaseUpload(io.BytesIO(csv), mimetype="text/csv", resumable=False)).execute()
    report["convert"] = {"file": sheet, "exported": download(files.export_media(fileId=sheet["id"], mimeType="text/csv")).decode("utf-8")}
    try:
        files.get_media(fileId=sheet["id"]).execute()
        report["nativeGetMedia"] = "no error"
    except HttpError as err:
        report["nativeGetMedia"] = error_of(err)

    # watch: an http: address is refused with the spec's reason (the client parses the error body).
    try:
        files.watch(fileId=first_id, body={"id": "compat-channel-1", "type": "web_hook", "address": "http://example.com/hook"}).execute()
        report["watchHttp"] = "no error"
    except HttpError as err:
        report["watchHttp"] = error_of(err)

    # delete, then get is a 404.
    files.delete(fileId=report["createWithId"]["id"]).execute()
    try:
        files.get(fileId=report["createWithId"]["id"]).execute()
        report["getDeleted"] = "no error"
    except HttpError as err:
        report["getDeleted"] = error_of(err)

    report["seen"] = SEEN
    print(json.dumps(report))


if __name__ == "__main__":
    main()
