package emulator

import (
	"net/http"
	"slices"
	"strings"

	"github.com/gabriel-vasile/mimetype"
)

// KindPlayGames is Play Games Services Publishing's imageConfigurations.upload.
const KindPlayGames Kind = "playgames" // /upload/games/v1configuration/images/...

func init() {
	serve(service{prefix: "games", kind: KindPlayGames, resolve: resolvePlayGames, fallsBack: true, routes: playGamesRoutes})
}

const playGamesLimit = 15 << 20

var playGamesImageTypes = []string{"ACHIEVEMENT_ICON", "LEADERBOARD_ICON"}

type playGamesEndpoint struct {
	resourceID, imageType string
}

// resolvePlayGames maps /upload/games/v1configuration/images/{resourceId}/imageType/{imageType}.
func resolvePlayGames(method string, seg []string) (endpoint, *apiError) {
	if len(seg) != 6 || seg[1] != "v1configuration" || seg[2] != "images" || seg[3] == "" ||
		seg[4] != "imageType" || seg[5] == "" || method != http.MethodPost {
		return nil, methodNotFound()
	}
	return &playGamesEndpoint{resourceID: seg[3], imageType: seg[5]}, nil
}

func (p *playGamesEndpoint) kind() Kind { return KindPlayGames }
func (p *playGamesEndpoint) action() string {
	return "gamesConfiguration.imageConfigurations.upload"
}
func (p *playGamesEndpoint) limit() int64    { return playGamesLimit }
func (p *playGamesEndpoint) accepts() string { return "image/*" }
func (p *playGamesEndpoint) newID() string   { return randomHex(8) }

func (p *playGamesEndpoint) check(_ *Server, u *uploadInfo) *apiError {
	if !slices.Contains(playGamesImageTypes, p.imageType) {
		return invalidEnum("image_type", "type.googleapis.com/gamesConfiguration.ImageConfiguration.ImageType", p.imageType)
	}
	// The method takes no request body: any field is unknown.
	return checkFields(u.metadata, "")
}

func (p *playGamesEndpoint) inspect(_ *uploadInfo, c content) *apiError {
	if c.Size == 0 {
		return invalid("The uploaded image is empty.")
	}
	if _, ok := sniffImage(c.Head); !ok {
		return invalid("The uploaded file is not an image.")
	}
	return nil
}

// imageExtensions names served images by their sniffed type.
var imageExtensions = map[string]string{
	"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
	"image/bmp": ".bmp", "image/x-icon": ".ico",
}

// sniffImage tells whether content is an image by its first bytes, and the
// extension its URL gets: the web's sniffing rules first, then a detector
// that also knows TIFF, SVG, HEIF, AVIF and the other formats image/* covers.
func sniffImage(head []byte) (ext string, ok bool) {
	if t := http.DetectContentType(head); strings.HasPrefix(t, "image/") {
		if ext, ok := imageExtensions[t]; ok {
			return ext, true
		}
		if m := mimetype.Lookup(t); m != nil {
			return m.Extension(), true
		}
		return "", true
	}
	if t := mimetype.Detect(head); strings.HasPrefix(t.String(), "image/") {
		return t.Extension(), true
	}
	return "", false
}

func imageExtension(head []byte) string {
	if ext, ok := sniffImage(head); ok && ext != "" {
		return ext
	}
	return ".img"
}

func (p *playGamesEndpoint) resource(_ *Server, f *finished) resourceResult {
	return resourceResult{name: p.resourceID, body: struct {
		Kind       string `json:"kind"`
		URL        string `json:"url"`
		ResourceID string `json:"resourceId"`
		ImageType  string `json:"imageType"`
	}{
		"gamesConfiguration#imageConfiguration",
		f.base + "/games/images/" + f.id + imageExtension(f.content.Head),
		p.resourceID, p.imageType,
	}}
}

// playGamesRoutes serves the address a Play Games image upload answers with.
func playGamesRoutes(s *Server, mux *http.ServeMux) {
	mux.HandleFunc("GET /games/images/{file}", s.serveGameImage)
}

// serveGameImage serves the URL a Play Games image upload answered.
func (s *Server) serveGameImage(w http.ResponseWriter, r *http.Request) {
	id, _, _ := strings.Cut(r.PathValue("file"), ".")
	obj, ok := s.Object(id)
	if !ok || obj.Kind != KindPlayGames {
		writeError(w, notFound("No image with this id."))
		return
	}
	s.serveBytes(w, obj, "inline")
}
