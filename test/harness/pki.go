package harness

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// pki holds the files of a server's private key infrastructure, all under
// one directory: a self-signed CA, the API server's serving certificate
// signed by it (valid for 127.0.0.1, localhost and the in-cluster names) and
// the service account token signing key pair.
type pki struct {
	caPEM                 []byte
	caFile                string
	servingCert, servingK string
	saPublic, saPrivate   string
}

// newPKI generates the key material into dir.
func newPKI(dir string) (*pki, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	now := time.Now()
	caKey, caDER, caCert, err := newCA(now)
	if err != nil {
		return nil, err
	}
	srvKey, srvDER, err := newServingCert(now, caCert, caKey)
	if err != nil {
		return nil, err
	}
	saKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	p := &pki{
		caPEM:       pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}),
		caFile:      filepath.Join(dir, "ca.crt"),
		servingCert: filepath.Join(dir, "apiserver.crt"),
		servingK:    filepath.Join(dir, "apiserver.key"),
		saPublic:    filepath.Join(dir, "sa.pub"),
		saPrivate:   filepath.Join(dir, "sa.key"),
	}
	if err := p.write(srvDER, srvKey, saKey); err != nil {
		return nil, err
	}
	return p, nil
}

// newCA returns the key and the self-signed certificate (DER and parsed)
// of a CA valid from an hour before now for a week.
func newCA(now time.Time) (*ecdsa.PrivateKey, []byte, *x509.Certificate, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, nil, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "ply-harness-ca"},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(7 * 24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, nil, nil, err
	}
	return caKey, caDER, caCert, nil
}

// newServingCert returns the API server's key and its serving certificate
// (DER), signed by the CA and valid, from an hour before now for a week,
// for 127.0.0.1, localhost and the in-cluster names of the API server.
func newServingCert(now time.Time, caCert *x509.Certificate, caKey *ecdsa.PrivateKey) (*ecdsa.PrivateKey, []byte, error) {
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Hour),
		NotAfter:     now.Add(7 * 24 * time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:     []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv4(10, 96, 0, 1)},
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		return nil, nil, err
	}
	return srvKey, srvDER, nil
}

// write writes the files of p, each PEM-encoded and readable by its owner
// only: the CA certificate (p.caPEM), the serving certificate srvDER and
// its key srvKey, and the service account key pair saKey.
func (p *pki) write(srvDER []byte, srvKey, saKey *ecdsa.PrivateKey) error {
	srvKeyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		return err
	}
	saKeyDER, err := x509.MarshalECPrivateKey(saKey)
	if err != nil {
		return err
	}
	saPubDER, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return err
	}
	files := []struct {
		path string
		data []byte
	}{
		{p.caFile, p.caPEM},
		{p.servingCert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srvDER})},
		{p.servingK, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: srvKeyDER})},
		{p.saPrivate, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: saKeyDER})},
		{p.saPublic, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: saPubDER})},
	}
	for _, f := range files {
		if err := os.WriteFile(f.path, f.data, 0o600); err != nil {
			return err
		}
	}
	return nil
}

func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		panic(fmt.Sprintf("harness: crypto/rand failed: %v", err))
	}
	return n
}

// newToken returns a random 32-hex-digit bearer token.
func newToken() string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		panic(fmt.Sprintf("harness: crypto/rand failed: %v", err))
	}
	return hex.EncodeToString(b)
}
