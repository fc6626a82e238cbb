package playground

import (
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// web holds the page: plain HTML, CSS and JavaScript, no build step, nothing from elsewhere.
//
//go:embed web
var web embed.FS

// assetTypes are the content types of the page's files that the system's MIME table may lack.
var assetTypes = map[string]string{".woff2": "font/woff2", ".txt": "text/plain; charset=utf-8"}

// assetHandler serves the page at / and its files by name (/app.js, /app.css, /icon.svg,
// /twemoji.woff2 and its licence).
func assetHandler() http.Handler {
	files, _ := fs.Sub(web, "web")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != "GET" && r.Method != "HEAD" {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "405 method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		data, err := fs.ReadFile(files, name)
		if err != nil || strings.Contains(name, "/") {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		ct := assetTypes[path.Ext(name)]
		if ct == "" {
			ct = mime.TypeByExtension(path.Ext(name))
		}
		if ct == "" {
			ct = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(data)
	})
}
