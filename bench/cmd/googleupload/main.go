// Command googleupload uploads files with Google's own Go client
// (google.golang.org/api/storage/v1, Objects.Insert with Media), the peer
// Hoist is measured against. It runs as a process of its own so that its
// time, CPU and peak memory are measured the same way as every other client.
//
//	googleupload -endpoint URL [-chunk BYTES] [-parallel N] PATH...
//
// A folder stands for the files in it. With -parallel 1 the files go one
// after another. The exit status is 0 only when every file uploaded.
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	storage "google.golang.org/api/storage/v1"
)

func main() {
	endpoint := flag.String("endpoint", "", "the server's base URL, e.g. http://127.0.0.1:8765")
	chunk := flag.Int("chunk", googleapi.DefaultUploadChunkSize, "bytes per request of a resumable upload; 0 = the whole file in one request")
	parallel := flag.Int("parallel", 1, "uploads at once")
	bucket := flag.String("bucket", "bench", "the bucket named in the upload URL")
	caFile := flag.String("ca", "", "trust the certificates in this PEM file (the HTTPS emulator's)")
	flag.Parse()
	if *endpoint == "" || flag.NArg() == 0 || *parallel < 1 || *chunk < 0 {
		fmt.Fprintln(os.Stderr, "usage: googleupload -endpoint URL [-chunk BYTES] [-parallel N] PATH...")
		os.Exit(2)
	}
	files, err := expand(flag.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "googleupload:", err)
		os.Exit(1)
	}
	ctx := context.Background()
	opts := []option.ClientOption{option.WithEndpoint(*endpoint + "/storage/v1/"), option.WithoutAuthentication()}
	if *caFile != "" {
		pem, err := os.ReadFile(*caFile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "googleupload:", err)
			os.Exit(1)
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(pem)
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.TLSClientConfig = &tls.Config{RootCAs: pool}
		opts = append(opts, option.WithHTTPClient(&http.Client{Transport: tr}))
	}
	svc, err := storage.NewService(ctx, opts...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "googleupload:", err)
		os.Exit(1)
	}
	if err := uploadAll(ctx, svc, *bucket, files, *chunk, *parallel); err != nil {
		fmt.Fprintln(os.Stderr, "googleupload:", err)
		os.Exit(1)
	}
}

// expand lists the files named, a folder standing for the files directly in it.
func expand(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, p)
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Type().IsRegular() {
				out = append(out, filepath.Join(p, e.Name()))
			}
		}
	}
	return out, nil
}

// uploadAll uploads files with parallel workers and returns the first failure.
func uploadAll(ctx context.Context, svc *storage.Service, bucket string, files []string, chunk, parallel int) error {
	work := make(chan string)
	errs := make(chan error, len(files))
	var wg sync.WaitGroup
	for range min(parallel, len(files)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range work {
				if err := uploadOne(ctx, svc, bucket, path, chunk); err != nil {
					errs <- fmt.Errorf("%s: %w", filepath.Base(path), err)
				}
			}
		}()
	}
	for _, f := range files {
		work <- f
	}
	close(work)
	wg.Wait()
	close(errs)
	var all []error
	for err := range errs {
		all = append(all, err)
	}
	return errors.Join(all...)
}

func uploadOne(ctx context.Context, svc *storage.Service, bucket, path string, chunk int) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = svc.Objects.Insert(bucket, &storage.Object{Name: filepath.Base(path)}).
		Media(f, googleapi.ChunkSize(chunk), googleapi.ContentType("application/octet-stream")).
		Context(ctx).Do()
	return err
}
