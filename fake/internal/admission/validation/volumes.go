package validation

import (
	"net"
	"path"
	"strings"

	corev1 "github.com/kubewire/kubewire/api/core/v1"
)

// A pod's volumes, as ValidateVolumes checks them: a DNS-label name,
// unique, and exactly one source with its required fields. Sources
// whose rules are not written here (downwardAPI, projected, ephemeral)
// are counted but not checked.

const fileModeMsg = "must be a number between 0 and 0777 (octal), both inclusive"

// volumes returns the names of the volumes that passed, for the
// containers' mounts, and the errors.
func (v *Validator) volumes(list []corev1.Volume, path string, isPod bool) (map[string]bool, errs) {
	var e errs
	names := map[string]bool{}
	valid := map[string]bool{}
	for i := range list {
		vol := &list[i]
		p := index(path, i)
		ve := v.volumeSource(&vol.VolumeSource, p, vol.Name, isPod)
		np := child(p, "name")
		if vol.Name == "" {
			ve.required(np, "")
		} else {
			for _, msg := range v.patterns.labelErrors(vol.Name) {
				ve.invalid(np, vol.Name, msg)
			}
		}
		if names[vol.Name] {
			ve.duplicate(np, vol.Name)
		}
		if len(ve) == 0 {
			names[vol.Name] = true
			valid[vol.Name] = true
		} else {
			e.addAll(ve)
		}
	}
	return valid, e
}

// volumeSource is validateVolumeSource: the sources in kube-apiserver's
// order, a second one refused.
// isPod: a Pod's image volumes need a reference, a template's not.
func (v *Validator) volumeSource(s *corev1.VolumeSource, p, volName string, isPod bool) errs {
	var e errs
	n := 0
	one := func(set bool, name string, check func() errs) {
		if !set {
			return
		}
		if n > 0 {
			e.forbidden(child(p, name), "may not specify more than 1 volume type")
			return
		}
		n++
		if check != nil {
			e.addAll(check())
		}
	}
	if s.EmptyDir != nil {
		n++
		if q := s.EmptyDir.SizeLimit; q != nil && q.Sign() < 0 {
			e.forbidden(child(child(p, "emptyDir"), "sizeLimit"), "SizeLimit field must be a valid resource quantity")
		}
	}
	one(s.HostPath != nil, "hostPath", func() errs { return hostPathSource(s.HostPath, child(p, "hostPath")) })
	one(s.GitRepo != nil, "gitRepo", func() errs {
		var e errs
		if s.GitRepo.Repository == "" {
			e.required(child(child(p, "gitRepo"), "repository"), "")
		}
		e.addAll(localDescendingPath(s.GitRepo.Directory, child(child(p, "gitRepo"), "directory")))
		return e
	})
	one(s.GCEPersistentDisk != nil, "gcePersistentDisk", func() errs {
		// kube-apiserver names this source persistentDisk in its paths.
		return diskSource(s.GCEPersistentDisk.PDName == "", "pdName", s.GCEPersistentDisk.Partition, child(p, "persistentDisk"))
	})
	one(s.AWSElasticBlockStore != nil, "awsElasticBlockStore", func() errs {
		return diskSource(s.AWSElasticBlockStore.VolumeID == "", "volumeID", s.AWSElasticBlockStore.Partition, child(p, "awsElasticBlockStore"))
	})
	one(s.Secret != nil, "secret", func() errs {
		return keyFiles(s.Secret.SecretName, "secretName", s.Secret.DefaultMode, s.Secret.Items, child(p, "secret"))
	})
	one(s.NFS != nil, "nfs", func() errs {
		var e errs
		q := child(p, "nfs")
		required(&e, q, "server", s.NFS.Server)
		required(&e, q, "path", s.NFS.Path)
		if !path.IsAbs(s.NFS.Path) {
			e.invalid(child(q, "path"), s.NFS.Path, "must be an absolute path")
		}
		return e
	})
	one(s.ISCSI != nil, "iscsi", func() errs { return iscsiSource(s.ISCSI, child(p, "iscsi"), volName) })
	one(s.Glusterfs != nil, "glusterfs", func() errs {
		var e errs
		required(&e, child(p, "glusterfs"), "endpoints", s.Glusterfs.EndpointsName)
		required(&e, child(p, "glusterfs"), "path", s.Glusterfs.Path)
		return e
	})
	one(s.Flocker != nil, "flocker", func() errs {
		var e errs
		f, q := s.Flocker, child(p, "flocker")
		if f.DatasetName == "" && f.DatasetUUID == "" {
			e.required(q, "one of datasetName and datasetUUID is required")
		}
		if f.DatasetName != "" && f.DatasetUUID != "" {
			e.invalid(q, "resource", "datasetName and datasetUUID can not be specified simultaneously")
		}
		if strings.Contains(f.DatasetName, "/") {
			e.invalid(child(q, "datasetName"), f.DatasetName, "must not contain '/'")
		}
		return e
	})
	one(s.PersistentVolumeClaim != nil, "persistentVolumeClaim", func() errs {
		var e errs
		required(&e, child(p, "persistentVolumeClaim"), "claimName", s.PersistentVolumeClaim.ClaimName)
		return e
	})
	one(s.RBD != nil, "rbd", func() errs {
		var e errs
		if len(s.RBD.CephMonitors) == 0 {
			e.required(child(child(p, "rbd"), "monitors"), "")
		}
		required(&e, child(p, "rbd"), "image", s.RBD.RBDImage)
		return e
	})
	one(s.Cinder != nil, "cinder", func() errs {
		var e errs
		required(&e, child(p, "cinder"), "volumeID", s.Cinder.VolumeID)
		if r := s.Cinder.SecretRef; r != nil && r.Name == "" {
			e.required(child(child(child(p, "cinder"), "secretRef"), "name"), "")
		}
		return e
	})
	one(s.CephFS != nil, "cephFS", func() errs {
		var e errs
		if len(s.CephFS.Monitors) == 0 {
			e.required(child(child(p, "cephfs"), "monitors"), "")
		}
		return e
	})
	one(s.Quobyte != nil, "quobyte", func() errs { return quobyteSource(s.Quobyte, child(p, "quobyte")) })
	// kube-apiserver misspells this source's name in its message.
	one(s.DownwardAPI != nil, "downwarAPI", nil)
	one(s.FC != nil, "fc", func() errs { return fcSource(s.FC, child(p, "fc")) })
	one(s.FlexVolume != nil, "flexVolume", func() errs {
		var e errs
		q := child(p, "flexVolume")
		required(&e, q, "driver", s.FlexVolume.Driver)
		for _, k := range sortedKeys(s.FlexVolume.Options) {
			ns := k
			if i := strings.Index(k, "/"); i >= 0 {
				ns = k[:i]
			}
			ns = "." + strings.ToLower(ns)
			if strings.HasSuffix(ns, ".kubernetes.io") || strings.HasSuffix(ns, ".k8s.io") {
				e.invalid(key(child(q, "options"), k), k, "kubernetes.io and k8s.io namespaces are reserved")
			}
		}
		return e
	})
	one(s.ConfigMap != nil, "configMap", func() errs {
		return keyFiles(s.ConfigMap.Name, "name", s.ConfigMap.DefaultMode, s.ConfigMap.Items, child(p, "configMap"))
	})
	one(s.AzureFile != nil, "azureFile", func() errs {
		var e errs
		required(&e, child(p, "azureFile"), "secretName", s.AzureFile.SecretName)
		required(&e, child(p, "azureFile"), "shareName", s.AzureFile.ShareName)
		return e
	})
	one(s.VsphereVolume != nil, "vsphereVolume", func() errs {
		var e errs
		required(&e, child(p, "vsphereVolume"), "volumePath", s.VsphereVolume.VolumePath)
		return e
	})
	one(s.PhotonPersistentDisk != nil, "photonPersistentDisk", func() errs {
		var e errs
		required(&e, child(p, "photonPersistentDisk"), "pdID", s.PhotonPersistentDisk.PdID)
		return e
	})
	one(s.PortworxVolume != nil, "portworxVolume", func() errs {
		var e errs
		required(&e, child(p, "portworxVolume"), "volumeID", s.PortworxVolume.VolumeID)
		return e
	})
	one(s.AzureDisk != nil, "azureDisk", func() errs { return azureDiskSource(s.AzureDisk, child(p, "azureDisk")) })
	one(s.StorageOS != nil, "storageos", func() errs { return v.storageOSSource(s.StorageOS, child(p, "storageos")) })
	one(s.Projected != nil, "projected", nil)
	one(s.ScaleIO != nil, "scaleIO", func() errs {
		var e errs
		q := child(p, "scaleIO")
		required(&e, q, "gateway", s.ScaleIO.Gateway)
		required(&e, q, "system", s.ScaleIO.System)
		required(&e, q, "volumeName", s.ScaleIO.VolumeName)
		return e
	})
	one(s.CSI != nil, "csi", nil)
	one(s.Ephemeral != nil, "ephemeral", nil)
	one(s.Image != nil, "image", func() errs {
		var e errs
		q := child(p, "image")
		if isPod {
			required(&e, q, "reference", s.Image.Reference)
		}
		switch s.Image.PullPolicy {
		case "Always", "IfNotPresent", "Never":
		case "":
			e.required(child(q, "pullPolicy"), "")
		default:
			e.notSupported(child(q, "pullPolicy"), string(s.Image.PullPolicy), "Always", "IfNotPresent", "Never")
		}
		return e
	})
	if n == 0 {
		e.required(p, "must specify a volume type")
	}
	return e
}

func required(e *errs, p, name, value string) {
	if value == "" {
		e.required(child(p, name), "")
	}
}

func hostPathSource(h *corev1.HostPathVolumeSource, p string) errs {
	var e errs
	if h.Path == "" {
		e.required(child(p, "path"), "")
		return e
	}
	e.addAll(noBacksteps(h.Path, child(p, "path")))
	if t := h.Type; t != nil {
		switch *t {
		case "", "DirectoryOrCreate", "Directory", "FileOrCreate", "File", "Socket", "CharDevice", "BlockDevice":
		default:
			e.notSupported(child(p, "type"), string(*t), "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket")
		}
	}
	return e
}

func noBacksteps(target, p string) errs {
	var e errs
	for _, part := range strings.Split(strings.ReplaceAll(target, "\\", "/"), "/") {
		if part == ".." {
			e.invalid(p, target, "must not contain '..'")
			break
		}
	}
	return e
}

func localDescendingPath(target, p string) errs {
	var e errs
	if path.IsAbs(target) {
		e.invalid(p, target, "must be a relative path")
	}
	e.addAll(noBacksteps(target, p))
	return e
}

func diskSource(missing bool, idName string, partition int32, p string) errs {
	var e errs
	if missing {
		e.required(child(p, idName), "")
	}
	if partition < 0 || partition > 255 {
		e.invalid(child(p, "partition"), partition, "must be between 1 and 255, inclusive")
	}
	return e
}

// keyFiles checks a secret or config map source: its name, mode and
// items.
func keyFiles(name, nameField string, mode *int32, items []corev1.KeyToPath, p string) errs {
	var e errs
	required(&e, p, nameField, name)
	if mode != nil && (*mode > 0o777 || *mode < 0) {
		e.invalid(child(p, "defaultMode"), *mode, fileModeMsg)
	}
	for i, kp := range items {
		q := index(child(p, "items"), i)
		required(&e, q, "key", kp.Key)
		required(&e, q, "path", kp.Path)
		e.addAll(localDescendingPath(kp.Path, child(q, "path")))
		if strings.HasPrefix(kp.Path, "..") && !strings.HasPrefix(kp.Path, "../") {
			e.invalid(child(q, "path"), kp.Path, "must not start with '..'")
		}
		if kp.Mode != nil && (*kp.Mode > 0o777 || *kp.Mode < 0) {
			e.invalid(child(q, "mode"), *kp.Mode, fileModeMsg)
		}
	}
	return e
}

func iscsiSource(s *corev1.ISCSIVolumeSource, p, volName string) errs {
	var e errs
	required(&e, p, "targetPortal", s.TargetPortal)
	if s.IQN == "" {
		e.required(child(p, "iqn"), "")
	} else if !strings.HasPrefix(s.IQN, "iqn") && !strings.HasPrefix(s.IQN, "eui") && !strings.HasPrefix(s.IQN, "naa") {
		e.invalid(child(p, "iqn"), s.IQN, "must be valid format starting with iqn, eui, or naa")
	}
	if s.Lun < 0 || s.Lun > 255 {
		e.invalid(child(p, "lun"), s.Lun, "must be between 0 and 255, inclusive")
	}
	if (s.DiscoveryCHAPAuth || s.SessionCHAPAuth) && s.SecretRef == nil {
		e.required(child(p, "secretRef"), "")
	}
	if s.InitiatorName != nil && len(volName+":"+s.TargetPortal) > 64 {
		e.invalid(child(p, "name"), volName, "Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.")
	}
	return e
}

func quobyteSource(q *corev1.QuobyteVolumeSource, p string) errs {
	var e errs
	const pairs = "must be a host:port pair or multiple pairs separated by commas"
	switch {
	case q.Registry == "":
		e.required(child(p, "registry"), pairs)
	case len(q.Tenant) >= 65:
		e.required(child(p, "tenant"), "must be a UUID and may not exceed a length of 64 characters")
	default:
		for _, hp := range strings.Split(q.Registry, ",") {
			if _, _, err := net.SplitHostPort(hp); err != nil {
				e.invalid(child(p, "registry"), q.Registry, pairs)
			}
		}
	}
	required(&e, p, "volume", q.Volume)
	return e
}

func fcSource(fc *corev1.FCVolumeSource, p string) errs {
	var e errs
	if len(fc.TargetWWNs) == 0 && len(fc.WWIDs) == 0 {
		e.required(child(p, "targetWWNs"), "must specify either targetWWNs or wwids, but not both")
	}
	if len(fc.TargetWWNs) != 0 && len(fc.WWIDs) != 0 {
		e.invalid(child(p, "targetWWNs"), fc.TargetWWNs, "targetWWNs and wwids can not be specified simultaneously")
	}
	if len(fc.TargetWWNs) != 0 {
		if fc.Lun == nil {
			e.required(child(p, "lun"), "lun is required if targetWWNs is specified")
		} else if *fc.Lun < 0 || *fc.Lun > 255 {
			e.invalid(child(p, "lun"), *fc.Lun, "must be between 0 and 255, inclusive")
		}
	}
	return e
}

func azureDiskSource(a *corev1.AzureDiskVolumeSource, p string) errs {
	var e errs
	required(&e, p, "diskName", a.DiskName)
	required(&e, p, "diskURI", a.DataDiskURI)
	if m := a.CachingMode; m != nil && *m != "None" && *m != "ReadOnly" && *m != "ReadWrite" {
		e.notSupported(child(p, "cachingMode"), string(*m), "None", "ReadOnly", "ReadWrite")
	}
	if k := a.Kind; k != nil {
		if *k != "Dedicated" && *k != "Managed" && *k != "Shared" {
			e.notSupported(child(p, "kind"), string(*k), "Dedicated", "Managed", "Shared")
		}
		if *k == "Managed" && !strings.HasPrefix(a.DataDiskURI, "/subscriptions/") {
			e.notSupported(child(p, "diskURI"), a.DataDiskURI, "/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}")
		}
		if *k != "Managed" && !strings.HasPrefix(a.DataDiskURI, "https://") {
			e.notSupported(child(p, "diskURI"), a.DataDiskURI, "https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd")
		}
	}
	return e
}

func (v *Validator) storageOSSource(s *corev1.StorageOSVolumeSource, p string) errs {
	var e errs
	if s.VolumeName == "" {
		e.required(child(p, "volumeName"), "")
	} else {
		for _, msg := range v.patterns.labelErrors(s.VolumeName) {
			e.invalid(child(p, "volumeName"), s.VolumeName, msg)
		}
	}
	if s.VolumeNamespace != "" {
		for _, msg := range v.patterns.labelErrors(s.VolumeNamespace) {
			e.invalid(child(p, "volumeNamespace"), s.VolumeNamespace, msg)
		}
	}
	if r := s.SecretRef; r != nil && r.Name == "" {
		e.required(child(child(p, "secretRef"), "name"), "")
	}
	return e
}

// volumeMounts is ValidateVolumeMounts for the checks written here: a
// name naming a valid volume, a unique mount path, relative sub paths.
func volumeMounts(mounts []corev1.VolumeMount, vols map[string]bool, p string) errs {
	var e errs
	paths := map[string]bool{}
	for i, m := range mounts {
		q := index(p, i)
		if m.Name == "" {
			e.required(child(q, "name"), "")
		}
		if !vols[m.Name] {
			e.notFound(child(q, "name"), m.Name)
		}
		if m.MountPath == "" {
			e.required(child(q, "mountPath"), "")
		}
		if paths[m.MountPath] {
			e.invalid(child(q, "mountPath"), m.MountPath, "must be unique")
		}
		paths[m.MountPath] = true
		// The sub path checks name the list, not the mount, as
		// kube-apiserver's do.
		if m.SubPath != "" {
			e.addAll(localDescendingPath(m.SubPath, child(p, "subPath")))
		}
		if m.SubPathExpr != "" {
			if m.SubPath != "" {
				e.invalid(child(q, "subPathExpr"), m.SubPathExpr, "subPathExpr and subPath are mutually exclusive")
			}
			e.addAll(localDescendingPath(m.SubPathExpr, child(p, "subPathExpr")))
		}
	}
	return e
}
