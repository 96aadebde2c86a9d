; Hoist's Windows installer: a per-user install that needs no administrator
; rights. It puts Hoist.exe (the window) and hoist-cli.exe (the command line)
; in %LOCALAPPDATA%\Programs\Hoist, adds a Start-menu entry, a "Send to ->
; Hoist" entry for files, and an uninstaller listed in Windows' Apps list.
;
; Built by scripts/package-windows.sh:
;   makensis -DVERSION=1.0.0 -DSTAGE=dir-with-the-exes -DICON=hoist.ico \
;            -DOUTFILE=Hoist-1.0.0-setup.exe scripts/windows/hoist.nsi

; Hoist is a 64-bit program; so is its installer (which also runs under a
; 64-bit-only Wine).
Target amd64-unicode
SetCompressor /SOLID lzma
RequestExecutionLevel user

!include "MUI2.nsh"

!define APP "Hoist"
!define UNINSTKEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\Hoist"

Name "${APP} ${VERSION}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${APP}"
InstallDirRegKey HKCU "Software\${APP}" "InstallDir"
ShowInstDetails show

VIProductVersion "${VERSION}.0"
VIAddVersionKey "ProductName" "${APP}"
VIAddVersionKey "FileDescription" "${APP} installer"
VIAddVersionKey "FileVersion" "${VERSION}"
VIAddVersionKey "ProductVersion" "${VERSION}"
VIAddVersionKey "LegalCopyright" "Hoist"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_FINISHPAGE_RUN "$INSTDIR\Hoist.exe"
!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH
!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_INSTFILES
!insertmacro MUI_LANGUAGE "English"

Section "Hoist"
	SetShellVarContext current
	SetOutPath "$INSTDIR"
	File "${STAGE}/Hoist.exe"
	File "${STAGE}/hoist-cli.exe"
	WriteUninstaller "$INSTDIR\Uninstall Hoist.exe"

	CreateShortCut "$SMPROGRAMS\${APP}.lnk" "$INSTDIR\Hoist.exe" "" "$INSTDIR\Hoist.exe" 0
	; Explorer's "Send to" passes the chosen files to Hoist, which queues them
	; (or hands them to the Hoist window already open).
	CreateShortCut "$SENDTO\${APP}.lnk" "$INSTDIR\Hoist.exe" "" "$INSTDIR\Hoist.exe" 0

	WriteRegStr HKCU "Software\${APP}" "InstallDir" "$INSTDIR"
	WriteRegStr HKCU "${UNINSTKEY}" "DisplayName" "${APP}"
	WriteRegStr HKCU "${UNINSTKEY}" "DisplayVersion" "${VERSION}"
	WriteRegStr HKCU "${UNINSTKEY}" "Publisher" "${APP}"
	WriteRegStr HKCU "${UNINSTKEY}" "DisplayIcon" "$INSTDIR\Hoist.exe"
	WriteRegStr HKCU "${UNINSTKEY}" "InstallLocation" "$INSTDIR"
	WriteRegStr HKCU "${UNINSTKEY}" "UninstallString" '"$INSTDIR\Uninstall Hoist.exe"'
	WriteRegDWORD HKCU "${UNINSTKEY}" "NoModify" 1
	WriteRegDWORD HKCU "${UNINSTKEY}" "NoRepair" 1
SectionEnd

Section "Uninstall"
	SetShellVarContext current
	Delete "$SMPROGRAMS\${APP}.lnk"
	Delete "$SENDTO\${APP}.lnk"
	Delete "$INSTDIR\Hoist.exe"
	Delete "$INSTDIR\hoist-cli.exe"
	Delete "$INSTDIR\Uninstall Hoist.exe"
	RMDir "$INSTDIR"
	DeleteRegKey HKCU "${UNINSTKEY}"
	DeleteRegKey HKCU "Software\${APP}"
	; The user's settings and upload list (%APPDATA%\Hoist and
	; %LOCALAPPDATA%\Hoist) are kept, as a reinstall expects them.
SectionEnd
