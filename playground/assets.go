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

// assetHandler serves the page at / and its files by name (/app.js, /app.css, /icon.svg).
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
		ct := mime.TypeByExtension(path.Ext(name))
		if ct == "" {
			ct = "application/octet-stream"
		}
		w.Header().Set("Content-Type", ct)
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(data)
	})
}
