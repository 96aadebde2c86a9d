package queuelist

import (
	"context"
	"fmt"
	"image"
	_ "image/gif" // decoders for thumbnails
	_ "image/jpeg"
	_ "image/png"
	"os"
	"sync"

	"golang.org/x/image/draw"
	_ "golang.org/x/image/webp"

	"hoist/engine"
)

const (
	thumbPixels   = 2 * thumbSize // drawn sharp at 200% scaling
	thumbKeep     = 512           // thumbnails kept in memory
	thumbMaxImage = 80 << 20      // pixels; larger pictures get an icon, not a thumbnail
	thumbWorkers  = 2
)

// Thumbnails decodes pictures into small images off the UI goroutine and
// keeps the most recent ones.
type Thumbnails struct {
	mu      sync.Mutex
	Ready   map[engine.JobID]struct{} // made since the last takeReady
	images  map[engine.JobID]image.Image
	failed  map[engine.JobID]bool
	pending map[engine.JobID]bool
	order   []engine.JobID // oldest first, for forgetting

	Work chan engine.JobView
	wg   sync.WaitGroup
}

func NewThumbnails() *Thumbnails {
	return &Thumbnails{
		Ready:   map[engine.JobID]struct{}{},
		images:  map[engine.JobID]image.Image{},
		failed:  map[engine.JobID]bool{},
		pending: map[engine.JobID]bool{},
		Work:    make(chan engine.JobView, 256),
	}
}

// Start runs the workers until ctx is done; wait waits for them.
func (t *Thumbnails) Start(ctx context.Context) {
	for range thumbWorkers {
		t.wg.Add(1)
		go func() {
			defer t.wg.Done()
			for {
				select {
				case <-ctx.Done():
					return
				case v := <-t.Work:
					t.Make(v)
				}
			}
		}()
	}
}

func (t *Thumbnails) Wait() { t.wg.Wait() }

// Thumbnail gives a picture's thumbnail; done is false while it is being made.
func (t *Thumbnails) Thumbnail(v engine.JobView) (image.Image, bool) { return t.get(v) }

// get returns the thumbnail of v's picture, or nil while it is being made
// (ready is called then) or when there is none (done is true).
func (t *Thumbnails) get(v engine.JobView) (img image.Image, done bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if img, ok := t.images[v.ID]; ok {
		return img, true
	}
	if t.failed[v.ID] {
		return nil, true
	}
	if t.pending[v.ID] {
		return nil, false
	}
	select {
	case t.Work <- v:
		t.pending[v.ID] = true
	default: // busy: the row asks again when it is next drawn
	}
	return nil, false
}

func (t *Thumbnails) Make(v engine.JobView) {
	img, err := decodeThumbnail(v.Path)
	t.mu.Lock()
	delete(t.pending, v.ID)
	if err != nil {
		t.failed[v.ID] = true
	} else {
		t.images[v.ID] = img
		t.Ready[v.ID] = struct{}{}
		t.order = append(t.order, v.ID)
		if len(t.order) > thumbKeep {
			delete(t.images, t.order[0])
			t.order = t.order[1:]
		}
	}
	t.mu.Unlock()
}

// TakeReady returns the jobs whose thumbnails were made since the last call.
func (t *Thumbnails) TakeReady() map[engine.JobID]struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.Ready) == 0 {
		return nil
	}
	r := t.Ready
	t.Ready = map[engine.JobID]struct{}{}
	return r
}

// decodeThumbnail reads a picture and scales it to fit thumbPixels square.
func decodeThumbnail(path string) (image.Image, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return nil, err
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || int64(cfg.Width)*int64(cfg.Height) > thumbMaxImage {
		return nil, fmt.Errorf("picture of %d × %d pixels is too large for a thumbnail", cfg.Width, cfg.Height)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	src, _, err := image.Decode(f)
	if err != nil {
		return nil, err
	}
	b := src.Bounds()
	w, h := thumbPixels, thumbPixels
	if b.Dx() > b.Dy() {
		h = max(1, thumbPixels*b.Dy()/b.Dx())
	} else {
		w = max(1, thumbPixels*b.Dx()/b.Dy())
	}
	if b.Dx() <= w && b.Dy() <= h {
		return src, nil
	}
	dst := image.NewNRGBA(image.Rect(0, 0, w, h))
	draw.ApproxBiLinear.Scale(dst, dst.Bounds(), src, b, draw.Src, nil)
	return dst, nil
}
