// The pyvista-quake viewer: plays a model's glTF (morph targets and node animations) with three.js.
// Built into ../static/viewer.bundle.js by dev/build_viewer.sh; everything it needs is in the page.
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';

function bytesOf(base64) {
  const text = atob(base64);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out.buffer;
}

// The key of a clip at time t: the frame the engines show (they blend towards the next).
function keyAt(times, t) {
  let k = 0;
  while (k + 1 < times.length && times[k + 1] <= t + 1e-6) k++;
  return k;
}

export function start(root, models, info) {
  const view = root.querySelector('.pq-view');
  const play = root.querySelector('.pq-play');
  const slider = root.querySelector('.pq-time');
  const picker = root.querySelector('.pq-animation');
  const skins = root.querySelector('.pq-skin');
  const label = root.querySelector('.pq-frame');
  const renderer = new THREE.WebGLRenderer({ antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  renderer.setSize(view.clientWidth, view.clientHeight);
  renderer.setClearColor(0xffffff, 1);
  view.appendChild(renderer.domElement);
  const scene = new THREE.Scene();
  scene.add(new THREE.HemisphereLight(0xffffff, 0x666666, 2.2));
  const sun = new THREE.DirectionalLight(0xffffff, 1.6);
  sun.position.set(1, 2, 1.5);
  scene.add(sun);
  const camera = new THREE.PerspectiveCamera(35, view.clientWidth / view.clientHeight, 0.1, 10000);
  const controls = new OrbitControls(camera, renderer.domElement);
  const clock = new THREE.Clock();
  let current = null; // {root, mixer, clips}
  let action = null;
  let playing = true;

  function show(index) {
    new GLTFLoader().parse(bytesOf(models[index]), '', (gltf) => {
      if (current) scene.remove(current.root);
      const mixer = new THREE.AnimationMixer(gltf.scene);
      current = { root: gltf.scene, mixer, clips: gltf.animations };
      scene.add(gltf.scene);
      if (index === 0 || !camera.userData.framed) {
        const box = new THREE.Box3().setFromObject(gltf.scene);
        const size = box.getSize(new THREE.Vector3()).length() || 1;
        const centre = box.getCenter(new THREE.Vector3());
        // Three-quarter front view (glTF's z is Quake's x, forward; y is up), the bounding sphere in view.
        const distance = (size / 2) / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2)) * 1.05;
        camera.position.copy(centre).add(new THREE.Vector3(0.55, 0.35, 1.0).normalize().multiplyScalar(distance));
        camera.near = size / 100; camera.far = size * 100; camera.updateProjectionMatrix();
        controls.target.copy(centre); controls.update();
        camera.userData.framed = true;
      }
      const chosen = picker.value;
      picker.innerHTML = '';
      for (const clip of gltf.animations) picker.add(new Option(clip.name, clip.name));
      if (chosen && gltf.animations.some((c) => c.name === chosen)) picker.value = chosen;
      else {
        // Start on an animation that moves (a player's first, BOTH_DEATH1, may hold one pose).
        const moving = gltf.animations.find((c) => c.duration > 0);
        if (moving) picker.value = moving.name;
      }
      picker.style.display = gltf.animations.length ? '' : 'none';
      pick(picker.value);
    }, (error) => { label.textContent = `cannot show the model: ${error}`; console.error(error); });
  }

  function pick(name) {
    if (!current) return;
    current.mixer.stopAllAction();
    const clip = current.clips.find((c) => c.name === name);
    action = clip ? current.mixer.clipAction(clip).play() : null;
    slider.max = clip ? clip.duration : 0;
    slider.step = clip ? Math.max(clip.duration / 1000, 0.001) : 0.001;
    update(0);
  }

  function update(dt) {
    if (!current) return;
    if (action && playing) current.mixer.update(dt);
    const t = action ? action.time : 0;
    slider.value = t;
    // A model of one frame has no animation to pick: its one frame is labelled all the same.
    const frames = info.clips[picker.value] || info.clips[Object.keys(info.clips)[0]];
    const named = picker.value ? `${picker.value}: ` : '';
    if (frames) {
      const k = keyAt(frames.times, t);
      label.textContent = `${named}frame ${frames.frames[k]} ${frames.names[k] || ''} (${t.toFixed(2)} s)`;
    } else {
      label.textContent = `${named}frame 0 (${t.toFixed(2)} s)`;
    }
  }

  play.addEventListener('click', () => { playing = !playing; play.textContent = playing ? 'Pause' : 'Play'; });
  slider.addEventListener('input', () => {
    if (!action) return;
    playing = false; play.textContent = 'Play';
    action.time = parseFloat(slider.value); current.mixer.update(0); update(0);
  });
  picker.addEventListener('change', () => pick(picker.value));
  if (skins) {
    if (models.length > 1) {
      info.skins.forEach((name, k) => skins.add(new Option(name, String(k))));
      skins.addEventListener('change', () => show(parseInt(skins.value, 10)));
    } else {
      skins.style.display = 'none';
    }
  }
  function loop() {
    requestAnimationFrame(loop);
    update(clock.getDelta());
    renderer.render(scene, camera);
  }
  show(0);
  loop();
}
