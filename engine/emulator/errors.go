package emulator

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
)

// statusResumeIncomplete is Google's "308 Resume Incomplete", not RFC 7538's redirect.
const statusResumeIncomplete = 308

// apiError is an answer in Google's JSON error shape.
type apiError struct {
	Status  int    `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s: %s", e.Status, e.Reason, e.Message)
}

func newError(status int, reason, format string, args ...any) *apiError {
	return &apiError{Status: status, Reason: reason, Message: fmt.Sprintf(format, args...)}
}

func badRequest(format string, args ...any) *apiError {
	return newError(http.StatusBadRequest, "badRequest", format, args...)
}

func invalid(format string, args ...any) *apiError {
	return newError(http.StatusBadRequest, "invalid", format, args...)
}

func notFound(format string, args ...any) *apiError {
	return newError(http.StatusNotFound, "notFound", format, args...)
}

// methodNotFound is what Google's front end answers for a path or verb no method serves.
func methodNotFound() *apiError {
	return notFound("Method not found.")
}

func tooLarge(limit int64) *apiError {
	return newError(http.StatusRequestEntityTooLarge, "uploadTooLarge",
		"Media larger than the maximum upload size of this method (%d bytes).", limit)
}

func internal(format string, args ...any) *apiError {
	return newError(http.StatusInternalServerError, "internalError", format, args...)
}

// canonicalStatus maps HTTP codes to the google.rpc.Code names Google puts in "status".
func canonicalStatus(code int) string {
	switch code {
	case http.StatusBadRequest:
		return "INVALID_ARGUMENT"
	case http.StatusUnauthorized:
		return "UNAUTHENTICATED"
	case http.StatusForbidden:
		return "PERMISSION_DENIED"
	case http.StatusNotFound:
		return "NOT_FOUND"
	case http.StatusConflict:
		return "ABORTED"
	case http.StatusTooManyRequests:
		return "RESOURCE_EXHAUSTED"
	case http.StatusInternalServerError:
		return "INTERNAL"
	case http.StatusNotImplemented:
		return "UNIMPLEMENTED"
	case http.StatusServiceUnavailable:
		return "UNAVAILABLE"
	case http.StatusGatewayTimeout:
		return "DEADLINE_EXCEEDED"
	}
	return ""
}

type errorItem struct {
	Message      string `json:"message"`
	Domain       string `json:"domain"`
	Reason       string `json:"reason"`
	Location     string `json:"location,omitempty"`
	LocationType string `json:"locationType,omitempty"`
}

type errorDetail struct {
	Code    int         `json:"code"`
	Message string      `json:"message"`
	Errors  []errorItem `json:"errors"`
	Status  string      `json:"status,omitempty"`
}

// errorJSON renders e as Google renders errors of its JSON APIs.
func errorJSON(e *apiError) []byte {
	item := errorItem{Message: e.Message, Domain: "global", Reason: e.Reason}
	if e.Status == http.StatusUnauthorized {
		item.Location, item.LocationType = "Authorization", "header"
	}
	b, err := json.Marshal(struct {
		Error errorDetail `json:"error"`
	}{errorDetail{Code: e.Status, Message: e.Message, Errors: []errorItem{item}, Status: canonicalStatus(e.Status)}})
	if err != nil {
		panic(err) // only strings and ints: cannot fail
	}
	return b
}

func writeError(w http.ResponseWriter, e *apiError) {
	writeJSON(w, e.Status, errorJSON(e))
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=UTF-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write(body)
}

// htmlErrorPage is the kind of page a proxy or front end sends instead of JSON.
const htmlErrorPage = `<!DOCTYPE html>
<html lang=en><meta charset=utf-8><title>Error %d (Server Error)!!1</title>
<p><b>%d.</b> <ins>That’s an error.</ins>
<p>The server encountered a temporary error and could not complete your request.<p>Please try again in 30 seconds. <ins>That’s all we know.</ins>
`

func writeHTMLError(w http.ResponseWriter, status int) {
	body := fmt.Sprintf(htmlErrorPage, status, status)
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=UTF-8")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	_, _ = w.Write([]byte(body))
}
