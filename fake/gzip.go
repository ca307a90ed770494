package fake

import (
	"compress/gzip"
	"io"
	"net/http"
)

// gunzipResponse decompresses a response body transparently.
func gunzipResponse(resp *http.Response) (*http.Response, error) {
	body := resp.Body
	zr, err := gzip.NewReader(body)
	if err != nil {
		_ = body.Close()
		return nil, err
	}
	resp.Body = &gzipBody{zr: zr, body: body}
	resp.Header.Del("Content-Encoding")
	resp.Header.Del("Content-Length")
	resp.ContentLength = -1
	resp.Uncompressed = true
	return resp, nil
}

type gzipBody struct {
	zr   *gzip.Reader
	body io.ReadCloser
}

func (g *gzipBody) Read(p []byte) (int, error) { return g.zr.Read(p) }
func (g *gzipBody) Close() error               { return g.body.Close() }
