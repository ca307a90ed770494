package exampleenv

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"

	metav1 "github.com/kubewire/kubewire/api/meta/v1"
)

// admission serves s behind hook, as Options.Webhook says: a write hook
// refuses is answered 500 InternalError and never reaches s.
func admission(s http.Handler, token string, hook func(*http.Request) error) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch req.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
			// Admission comes after authentication, as on kube-apiserver.
			if req.Header.Get("Authorization") != "Bearer "+token {
				break
			}
			if err := hook(req); err != nil {
				webhookFailed(w, err)
				return
			}
		}
		s.ServeHTTP(w, req)
	}))
}

// webhookFailed answers as kube-apiserver does when a webhook with
// failurePolicy Fail could not be called; err says which and why.
func webhookFailed(w http.ResponseWriter, err error) {
	msg := "Internal error occurred: " + err.Error()
	body, _ := json.Marshal(&metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusFailure,
		Message:  msg,
		Reason:   metav1.StatusReasonInternalError,
		Details:  &metav1.StatusDetails{Causes: []metav1.StatusCause{{Message: msg}}},
		Code:     http.StatusInternalServerError,
	})
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusInternalServerError)
	_, _ = w.Write(body)
}
