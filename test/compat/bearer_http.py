"""The HTTP transport both Python client scripts use: the bearer token on every request, and each exchange reported."""

import httplib2


class BearerHttp(httplib2.Http):
    """httplib2 with the bearer token on every request, 308 not followed (as googleapiclient's build_http does).

    `record(uri, method, headers, resp)` is called after every exchange, so a script can keep what it needs of it.
    """

    def __init__(self, token, record):
        super().__init__(timeout=30)
        self.redirect_codes = self.redirect_codes - {308}
        self._token = token
        self._record = record

    def request(self, uri, method="GET", body=None, headers=None, *args, **kwargs):
        headers = dict(headers or {})
        headers["authorization"] = "Bearer " + self._token
        resp, content = super().request(uri, method, body, headers, *args, **kwargs)
        self._record(uri, method, headers, resp)
        return resp, content
